import SeedModel

/// Reads entity XML: the root's child elements are objects, the element name is the entity,
/// XML attributes are attribute values (or, for a to-one relationship, the destination's
/// natural key), and nested elements are related objects:
///
/// ```xml
/// <Events><Event timeStamp="01/16/2010"/></Events>
/// <Teams><Team name="Deutschland"><players><Player name="Neuer" number="1"/></players></Team></Teams>
/// ```
///
/// A nested element is named after the related entity (when exactly one relationship of the
/// parent leads there) or after the relationship, wrapping the related objects.
package final class EntityXMLDelegate: XMLStreamDelegate {
    private enum Frame {
        case root
        case object(ObjectReference)
        case wrapper(parent: ObjectReference, relationship: String)
    }

    private let repository: SeedRepository
    @exclusivity(unchecked) private var stack: [Frame] = []
    /// What each interned attribute name means, per entity plan, so names are matched by
    /// pointer without a String or a hash; the current plan's list is searched first.
    private var propertyCaches: [ObjectIdentifier: [(name: UnsafeRawPointer, property: EntityPlan.Property)]] = [:]
    @exclusivity(unchecked) private var cachedPlan: ObjectIdentifier?
    @exclusivity(unchecked) private var cachedProperties: [(name: UnsafeRawPointer, property: EntityPlan.Property)] = []
    /// The plan and attribute names (in order, none in a namespace) `resolved` was made for:
    /// elements of one entity mostly give the same attributes in the same order, and then
    /// only the names' pointers are compared.
    @exclusivity(unchecked) private var resolvedPlan: ObjectIdentifier?
    @exclusivity(unchecked) private var resolvedNames: [UnsafeRawPointer] = []
    @exclusivity(unchecked) private var resolved: [ResolvedProperty] = []
    private var model: DataModel { repository.layout.model }

    /// A delegate that writes through `repository`.
    package init(repository: SeedRepository) {
        self.repository = repository
    }

    package func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        guard let frame = stack.last else {
            if attributes.count > 0 {
                throw InputError("the root element <\(name)> takes no attributes; its child elements are the objects", at: location)
            }
            stack.append(.root)
            return
        }
        switch frame {
        case .root:
            stack.append(.object(try insertObject(name, attributes, at: location)))
        case .object(let parent):
            if let relationship = try repository.plan(for: parent.entity, at: location).relationships[name] {
                if attributes.count > 0 {
                    throw InputError("<\(name)> wraps the objects of \(parent.entity).\(name) and takes no attributes", at: location)
                }
                stack.append(.wrapper(parent: parent, relationship: relationship.name))
            } else {
                let relationship = try relationship(of: parent, leadingTo: name, at: location)
                try insertRelated(name, attributes, parent: parent, relationship: relationship, at: location)
            }
        case .wrapper(let parent, let relationship):
            try insertRelated(name, attributes, parent: parent, relationship: relationship, at: location)
        }
    }

    /// Writes one object from its start tag: attribute values go from libxml2's buffer
    /// straight to the converters (the import hot path).
    private func insertObject(_ entity: String, _ attributes: XMLAttributes, at location: InputLocation) throws(InputError) -> ObjectReference {
        let plan = try repository.beginObject(entity, at: location)
        if givesResolvedNames(plan, attributes) {
            // A local constant: the properties stay alive, read without a retain each.
            let resolved = self.resolved
            for index in 0..<attributes.count {
                switch resolved[index] {
                case .attribute(let slot):
                    let value = attributes.rawValueBytes(at: index)
                    if value.contains(UInt8(ascii: "&")) {
                        try set(.attribute(slot.takeUnretainedValue()), index, of: attributes, plan, at: location)
                    } else {
                        try plan.setValue(slot.takeUnretainedValue(), value, at: location)
                    }
                case .toOne(let slot):
                    repository.addReference(slot.takeUnretainedValue(), key: attributes.value(at: index))
                }
            }
            return try repository.commitObject(plan, at: location)
        }
        resolvedPlan = nil
        resolvedNames.removeAll(keepingCapacity: true)
        resolved.removeAll(keepingCapacity: true)
        if cachedPlan != ObjectIdentifier(plan) {
            if let cachedPlan { propertyCaches[cachedPlan] = cachedProperties }
            cachedPlan = ObjectIdentifier(plan)
            cachedProperties = propertyCaches[ObjectIdentifier(plan)] ?? []
        }
        var identifier: String?
        var nils: String?
        var identified: [(relationship: RelationshipDescription, identifiers: String)] = []
        for index in 0..<attributes.count {
            if let namespace = attributes.namespace(at: index) {
                // seedgen:id names this object; seedgen:nil lists attributes given as nil;
                // seedgen:<relationship> names objects by their ids.
                let name = attributes.name(at: index)
                guard namespace == Self.sourceNamespace else {
                    throw InputError("attribute '\(name)' is in the namespace '\(namespace)'; only \(Self.sourceNamespace) (seedgen:id, seedgen:nil, seedgen:<relationship>) is read", at: location)
                }
                if name == "id" {
                    identifier = attributes.value(at: index)
                } else if name == "nil" {
                    nils = attributes.value(at: index)
                } else if let relationship = plan.relationships[name] {
                    identified.append((relationship, attributes.value(at: index)))
                } else {
                    throw InputError("seedgen:\(name): \(entity) has no relationship '\(name)' (seedgen:id names the object itself)", at: location)
                }
                continue
            }
            let name = attributes.nameIdentity(at: index)
            let property: EntityPlan.Property
            if let cached = cachedProperties.first(where: { $0.name == name }) {
                property = cached.property
            } else {
                property = plan.property(named: attributes.name(at: index))
                cachedProperties.append((name, property))
            }
            try set(property, index, of: attributes, plan, at: location)
            resolvedNames.append(name)
            switch property {
            case .attribute(let slot): resolved.append(.attribute(.passUnretained(slot)))
            case .toOne(let slot): resolved.append(.toOne(.passUnretained(slot)))
            case .toMany, .enumCase, .unknown: break  // not resolved: `set` refused it, or looks its case up
            }
        }
        if resolved.count == attributes.count { resolvedPlan = ObjectIdentifier(plan) }
        for name in nils?.split(whereSeparator: \.isWhitespace) ?? [] {
            try repository.giveNil(String(name), of: plan, at: location)
        }
        let object = try repository.commitObject(plan, identifier: identifier, at: location)
        for (relationship, list) in identified {
            // One word at a time: a list of a million identifiers makes no array of them.
            var rest = Substring(list)
            var linked = 0
            while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
                let end = rest[start...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
                guard relationship.isToMany || linked == 0 else { break }
                try repository.link(object, relationship.name, toIdentifier: String(rest[start..<end]), at: location)
                linked += 1
                rest = rest[end...]
            }
            guard relationship.isToMany || (linked == 1 && rest.allSatisfy(\.isWhitespace)) else {
                throw InputError("seedgen:\(relationship.name) is a to-one relationship and takes one identifier, not '\(list)'", at: location)
            }
        }
        return object
    }

    /// Whether the element gives the attributes `resolved` was made for, in the same order.
    private func givesResolvedNames(_ plan: EntityPlan, _ attributes: XMLAttributes) -> Bool {
        guard resolvedPlan == ObjectIdentifier(plan), attributes.count == resolvedNames.count else { return false }
        for index in 0..<attributes.count where attributes.nameIdentity(at: index) != resolvedNames[index] || attributes.hasNamespace(at: index) {
            return false
        }
        return true
    }

    /// Gives the object being built the value of attribute `index`, which names `property`.
    private func set(_ property: EntityPlan.Property, _ index: Int, of attributes: XMLAttributes, _ plan: EntityPlan,
                     at location: InputLocation) throws(InputError) {
        switch property {
        case .attribute(let slot):
            try attributes.withValueBytes(at: index) { (bytes) throws(InputError) in
                try plan.setValue(slot, bytes, at: location)
            }
        case .toOne(let slot):
            repository.addReference(slot, key: attributes.value(at: index))
        case .enumCase(let cases):
            var text = attributes.value(at: index)
            try plan.setCase(cases, &text, of: attributes.name(at: index), at: location)
        case .toMany, .unknown:
            throw plan.valueError(attributes.name(at: index), at: location)
        }
    }

    /// The namespace of seedgen's own attributes in entity XML: `xmlns:seedgen="urn:seedgen:source"`.
    package static let sourceNamespace = "urn:seedgen:source"

    package func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        stack.removeLast()
    }

    package func characters(_ text: String, at location: InputLocation) throws(InputError) {
        guard text.contains(where: { !$0.isWhitespace }) else { return }
        throw InputError("unexpected text '\(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40))': values go in XML attributes", at: location)
    }

    private func insertRelated(_ entity: String, _ attributes: XMLAttributes, parent: ObjectReference,
                               relationship: String, at location: InputLocation) throws(InputError) {
        repository.nest(in: parent, relationship)
        let child = try insertObject(entity, attributes, at: location)
        // An ordered to-many places it after the parent's objects so far, from any element or file.
        try repository.linkNested(child, in: parent, relationship, at: location)
        stack.append(.object(child))
    }

    /// The one relationship of the parent's entity whose destination is `entity` or an ancestor of it.
    private func relationship(of parent: ObjectReference, leadingTo entity: String, at location: InputLocation) throws(InputError) -> String {
        guard let child = model.entity(named: entity) else {
            throw InputError("<\(entity)> inside \(parent.entity): neither an entity nor a relationship of \(parent.entity)", at: location)
        }
        let source = model.entity(named: parent.entity)!
        let candidates = model.allRelationships(of: source).filter { relationship in
            !relationship.isTransient && model.entity(named: relationship.destinationEntity).map { model.entity(child, isKindOf: $0) } == true
        }
        guard candidates.count == 1 else {
            let message = candidates.isEmpty
                ? "no relationship of \(parent.entity) leads to \(entity)"
                : "\(candidates.count) relationships of \(parent.entity) lead to \(entity) (\(candidates.map(\.name).joined(separator: ", "))); wrap the element in one of them"
            throw InputError(message, at: location)
        }
        return candidates[0].name
    }
}

/// A property an element's attribute named, as `EntityXMLDelegate` keeps it for the next element
/// that gives the same names: its slot held without a reference count, as the plan that owns
/// it lives as long as the import (a retain and release per value took 8% of a flat import's
/// parsing thread).
private enum ResolvedProperty {
    case attribute(Unmanaged<EntityPlan.AttributeSlot>)
    case toOne(Unmanaged<EntityPlan.ToOneSlot>)
}
