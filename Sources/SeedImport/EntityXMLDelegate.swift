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
public final class EntityXMLDelegate: XMLStreamDelegate {
    private enum Frame {
        case root
        case object(ObjectReference)
        case wrapper(parent: ObjectReference, relationship: String)
    }

    private let repository: SeedRepository
    private var stack: [Frame] = []
    /// Next position per (parent object, relationship), for ordered to-many relationships.
    private var positions: [ObjectReference: [String: Int]] = [:]
    private var model: DataModel { repository.layout.model }

    /// A delegate that writes through `repository`.
    public init(repository: SeedRepository) {
        self.repository = repository
    }

    public func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        guard let frame = stack.last else {
            if attributes.count > 0 {
                throw InputError("the root element <\(name)> takes no attributes; its child elements are the objects", at: location)
            }
            stack.append(.root)
            return
        }
        var values: [(name: String, value: String)] = []
        values.reserveCapacity(attributes.count)
        for index in 0..<attributes.count {
            values.append((attributes.name(at: index), attributes.value(at: index)))
        }
        switch frame {
        case .root:
            stack.append(.object(try repository.insert(entity: name, values: values, at: location)))
        case .object(let parent):
            if let relationship = model.entity(named: parent.entity).flatMap({ model.allRelationships(of: $0).first { $0.name == name } }) {
                if !values.isEmpty {
                    throw InputError("<\(name)> wraps the objects of \(parent.entity).\(name) and takes no attributes", at: location)
                }
                stack.append(.wrapper(parent: parent, relationship: relationship.name))
            } else {
                let relationship = try relationship(of: parent, leadingTo: name, at: location)
                try insertRelated(name, values, parent: parent, relationship: relationship, at: location)
            }
        case .wrapper(let parent, let relationship):
            try insertRelated(name, values, parent: parent, relationship: relationship, at: location)
        }
    }

    public func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        if case .object(let object) = stack.removeLast() {
            positions[object] = nil
        }
    }

    public func characters(_ text: String, at location: InputLocation) throws(InputError) {
        guard text.contains(where: { !$0.isWhitespace }) else { return }
        throw InputError("unexpected text '\(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40))': values go in XML attributes", at: location)
    }

    private func insertRelated(_ entity: String, _ values: [(name: String, value: String)], parent: ObjectReference,
                               relationship: String, at location: InputLocation) throws(InputError) {
        let child = try repository.insert(entity: entity, values: values, at: location)
        let position = (positions[parent]?[relationship] ?? 0) + 1
        positions[parent, default: [:]][relationship] = position
        try repository.link(parent, relationship, to: child, position: position, at: location)
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
