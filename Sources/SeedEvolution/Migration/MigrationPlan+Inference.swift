import SeedModel
import SeedStore

extension MigrationPlan {
    /// The plan Core Data's inferred mapping makes from `source` to `destination`, from the two
    /// models alone. An element is matched by its canonical name, its renaming identifier or
    /// else its name (so v1 → v3 works through a chain of renames, as in Core Data).
    public init(from source: ModelVersions.Version, to destination: ModelVersions.Version) {
        sourceVersion = source.name
        destinationVersion = destination.name
        entities = []
        removedEntities = []
        refusals = []
        requirements = []
        warnings = []
        let from = source.model, to = destination.model
        // Destination entity -> the source entity it takes over.
        var taking: [String: EntityDescription] = [:]
        for entity in to.entities {
            let id = entity.renamingIdentifier ?? entity.name
            if let match = from.entities.first(where: { ($0.renamingIdentifier ?? $0.name) == id }) {
                taking[entity.name] = match
            } else if let named = from.entity(named: id), let own = named.renamingIdentifier, own != id {
                warnings.append(Self.identifierWarning(subject: entity.name, identifier: id, source: named.name, sourceIdentifier: own, what: "objects"))
            }
        }
        for entity in to.entities {
            guard let origin = taking[entity.name],
                  let first = to.entities.first(where: { taking[$0.name]?.name == origin.name }), first.name != entity.name else { continue }
            refusals.append(Refusal(reason: .ambiguousRenaming, subject: entity.name,
                                    message: "takes over \(origin.name) as \(first.name) does (the same renaming identifier or name): which one keeps its objects is not inferred"))
        }
        let takenOver = Set(taking.values.map(\.name))
        removedEntities = from.entities.map(\.name).filter { !takenOver.contains($0) }
        // Source entity -> the destination entity that takes it over.
        // (the first in the destination's order where two take one over: the others are refused)
        var successor: [String: String] = [:]
        for entity in to.entities {
            if let origin = taking[entity.name], successor[origin.name] == nil { successor[origin.name] = entity.name }
        }
        for entity in to.entities {
            var step = EntityStep(name: entity.name, source: taking[entity.name]?.name, properties: [])
            if let old = taking[entity.name] {
                step.properties = properties(of: entity, in: to, from: old, in: from, successor: successor)
            } else {
                step.properties = Self.stored(entity, in: to).map { PropertyStep(name: $0.name, source: nil, change: .added(defaultValue: $0.defaultValue)) }
            }
            entities.append(step)
        }
        refuseMergedHierarchies(to, from, taking)
    }

    /// The classic mistake: a renaming identifier set to the source element's *name* while that
    /// element has an identifier of its own; Core Data matches identifiers, so nothing is carried.
    static func identifierWarning(subject: String, identifier: String, source: String, sourceIdentifier: String, what: String) -> Warning {
        Warning(reason: .identifierNamesAnotherElement, subject: subject,
                message: "its renaming identifier \(identifier) is the name of \(source), whose own identifier is \(sourceIdentifier): Core Data matches identifiers, "
                    + "not names, so \(source)'s \(what) are not carried over; set the renaming identifier to \(sourceIdentifier) to carry them")
    }

    /// A stored property, attribute or relationship, with what a migration looks at.
    struct StoredProperty {
        var name: String
        var canonicalName: String
        var attribute: AttributeDescription?
        var relationship: RelationshipDescription?
        /// For a Composite's element: its name within the Composite (`street` of `address.street`),
        /// empty for a raw-value enum's one element named like the Composite, which keeps being
        /// its one element when the Composite is renamed.
        var element: String?
        /// For a Composite's element: the renaming identifier it carries, when not its name.
        var elementIdentifier: String?
        /// For a Composite: its elements, each under its stored name (`address.street`).
        var elements: [StoredProperty]? {
            guard let attribute, let elements = attribute.elements else { return nil }
            let alone = elements.count == 1 && elements[0].name == attribute.name
            return zip(elements, attribute.storedAttributes).map { element, stored in
                StoredProperty(name: stored.name, canonicalName: stored.name, attribute: stored, element: alone ? "" : element.name,
                               elementIdentifier: element.renamingIdentifier.flatMap { $0 == element.name ? nil : $0 })
            }
        }
        var isOptional: Bool { attribute?.isOptional ?? relationship!.isOptional }
        var defaultValue: String? { attribute?.defaultValue }
    }

    /// An entity's stored properties, inherited first, in the model's order.
    static func stored(_ entity: EntityDescription, in model: DataModel) -> [StoredProperty] {
        model.allAttributes(of: entity).filter { !$0.isTransient }.map {
            StoredProperty(name: $0.name, canonicalName: $0.renamingIdentifier ?? $0.name, attribute: $0)
        } + model.allRelationships(of: entity).filter { !$0.isTransient }.map {
            StoredProperty(name: $0.name, canonicalName: $0.renamingIdentifier ?? $0.name, relationship: $0)
        }
    }

    private mutating func properties(of entity: EntityDescription, in to: DataModel, from old: EntityDescription, in from: DataModel,
                                     successor: [String: String]) -> [PropertyStep] {
        let oldProperties = Self.stored(old, in: from)
        var matched: Set<String> = []
        var steps: [PropertyStep] = []
        for property in Self.stored(entity, in: to) {
            let subject = "\(entity.name).\(property.name)"
            // Matched as Core Data matches: by the identifier both share (unset, the name).
            guard let previous = oldProperties.first(where: { $0.canonicalName == property.canonicalName }) else {
                if let named = oldProperties.first(where: { $0.name == property.canonicalName && $0.canonicalName != $0.name }) {
                    warnings.append(Self.identifierWarning(subject: subject, identifier: property.canonicalName, source: "\(old.name).\(named.name)",
                                                           sourceIdentifier: named.canonicalName, what: "values"))
                }
                for added in property.elements ?? [property] {
                    steps.append(addedStep(added, of: entity, old: old))
                }
                continue
            }
            if !matched.insert(previous.name).inserted {
                refusals.append(Refusal(reason: .ambiguousRenaming, subject: subject,
                                        message: "takes its values from \(old.name).\(previous.name), as another property of \(entity.name) does (the same renaming identifier or name)"))
            }
            if let elements = property.elements, let oldElements = previous.elements {
                steps += elementSteps(elements, from: oldElements, of: entity, old: old)
            } else {
                steps.append(keptStep(property, from: previous, of: entity, old: old, successor: successor))
            }
        }
        for property in oldProperties where !matched.contains(property.name) {
            for removed in property.elements ?? [property] {
                steps.append(PropertyStep(name: removed.name, source: removed.name, change: .removed))
            }
        }
        requireUniqueness(of: entity, from: old, in: from, steps)
        return steps
    }

    /// The step of a property (or a Composite's element) the destination adds to `entity`:
    /// rows get its default, and a required one without a default needs `old` to have no rows.
    private mutating func addedStep(_ property: StoredProperty, of entity: EntityDescription, old: EntityDescription) -> PropertyStep {
        if !property.isOptional && property.defaultValue == nil && !(property.relationship?.isToMany ?? false) {
            requirements.append(Requirement(sourceEntity: old.name, condition: .noRows, refusal: Refusal(
                reason: .requiredWithoutValue, subject: "\(entity.name).\(property.name)",
                message: "a required \(property.attribute == nil ? "relationship" : "attribute") without a default is added, and \(old.name) has rows (Core Data's migration fails validation)")))
        }
        return PropertyStep(name: property.name, source: nil, change: .added(defaultValue: property.defaultValue))
    }

    /// The steps of a Composite kept from a source Composite, element by element (each a column
    /// of the entity's table): an element kept under its name is carried as an attribute is, one
    /// only the destination has is added, one only the source has is removed. Core Data uses
    /// Composites "anywhere you use standard attributes, including lightweight migrations"
    /// (NSCompositeAttributeDescription's documentation); that it matches elements by name, as
    /// the values' dictionary keys them, is *assumed*. An element renamed by a renaming
    /// identifier is refused: how Core Data maps one is not known.
    private mutating func elementSteps(_ elements: [StoredProperty], from oldElements: [StoredProperty], of entity: EntityDescription,
                                       old: EntityDescription) -> [PropertyStep] {
        var steps: [PropertyStep] = []
        for element in elements {
            if let identifier = element.elementIdentifier {
                refusals.append(Refusal(reason: .elementRenamed, subject: "\(entity.name).\(element.name)",
                                        message: "an element of a Composite carries the renaming identifier \(identifier): how Core Data maps a renamed element is not known, so seedgen does not"))
                steps.append(PropertyStep(name: element.name, source: nil, change: .refused))
                continue
            }
            guard let previous = oldElements.first(where: { $0.element == element.element }) else {
                steps.append(addedStep(element, of: entity, old: old))
                // A member every value of its struct must give, in an optional struct (its
                // element optional in the model): rows holding a value would lack it.
                if element.isOptional, element.attribute?.isRequiredInValue == true, let composite = element.name.split(separator: ".").first {
                    requirements.append(Requirement(sourceEntity: old.name, condition: .noValues(oldElements.map(\.name)), refusal: Refusal(
                        reason: .requiredWithoutValue, subject: "\(entity.name).\(element.name)",
                        message: "a member every \(composite) value must give is added, and some \(old.name) rows hold a \(composite) (it would lack the member)")))
                }
                continue
            }
            steps.append(keptStep(element, from: previous, of: entity, old: old, successor: [:]))
        }
        for previous in oldElements where !elements.contains(where: { $0.element == previous.element }) {
            steps.append(PropertyStep(name: previous.name, source: previous.name, change: .removed))
        }
        return steps
    }

    /// The step of `property` taking over `previous` (an attribute, a relationship or a
    /// Composite's element): kept, reshaped, or refused where Core Data infers no mapping.
    private mutating func keptStep(_ property: StoredProperty, from previous: StoredProperty, of entity: EntityDescription, old: EntityDescription,
                                   successor: [String: String]) -> PropertyStep {
        let subject = "\(entity.name).\(property.name)"
        var step = PropertyStep(name: property.name, source: previous.name, change: .kept)
        var reshaping = Reshaping()
        switch (property.attribute, previous.attribute, property.relationship, previous.relationship) {
        case let (attribute?, oldAttribute?, _, _):
            if attribute.type != oldAttribute.type {
                step.change = .refused
                refusals.append(Refusal(reason: .typeChanged, subject: subject,
                                        message: "the type changes from \(oldAttribute.type.rawValue) to \(attribute.type.rawValue) (Core Data infers no type change; migrate in steps through a new attribute)"))
                return step
            }
        case let (_, _, relationship?, oldRelationship?):
            let target = successor[oldRelationship.destinationEntity]
            guard target == relationship.destinationEntity else {
                step.change = .refused
                refusals.append(Refusal(reason: .destinationChanged, subject: subject,
                                        message: "pointed at \(oldRelationship.destinationEntity), now at \(relationship.destinationEntity), which does not take \(oldRelationship.destinationEntity)'s objects over"))
                return step
            }
            if relationship.isToMany != oldRelationship.isToMany {
                reshaping.cardinality = relationship.isToMany ? .toMany : .toOne
            } else if relationship.isOrdered != oldRelationship.isOrdered, relationship.isToMany {
                reshaping.ordering = relationship.isOrdered ? .ordered : .unordered
            }
        default:
            step.change = .refused
            refusals.append(Refusal(reason: .kindChanged, subject: subject,
                                    message: "was \(previous.attribute == nil ? "a relationship" : "an attribute"), is now \(property.attribute == nil ? "a relationship" : "an attribute")"))
            return step
        }
        if previous.isOptional && !property.isOptional {
            if let value = property.defaultValue {
                reshaping.optionality = .required(default: value)
            } else if !(property.relationship?.isToMany ?? false) {
                reshaping.optionality = .required(default: nil)
                requirements.append(Requirement(sourceEntity: old.name, condition: .noNulls(previous.name), refusal: Refusal(
                    reason: .requiredWithoutValue, subject: subject,
                    message: "becomes required without a default, and some \(old.name) rows hold no value")))
            }
        } else if !previous.isOptional && property.isOptional {
            reshaping.optionality = .optional
        }
        if !reshaping.isEmpty { step.change = .reshaped(reshaping) }
        return step
    }

    /// A uniqueness constraint the destination declares and the source entity did not: its rows
    /// must not break it (Core Data's unique index would fail to build).
    private mutating func requireUniqueness(of entity: EntityDescription, from old: EntityDescription, in from: DataModel, _ steps: [PropertyStep]) {
        let source = Dictionary(steps.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let oldConstraints = Set(from.lineage(of: old).flatMap(\.uniquenessConstraints).map { Set($0) })
        for constraint in entity.uniquenessConstraints {
            // The constraint in source names; an added property holds its default in every row
            // (no default: NULL, which never clashes).
            var names: [String] = []
            var holdsNull = false
            for name in constraint {
                guard let step = source[name] else { continue }
                if let previous = step.source, step.change != .refused { names.append(previous) } else if case .added(nil) = step.change { holdsNull = true }
            }
            let existed = names.count == constraint.count && oldConstraints.contains(Set(names))
            guard !holdsNull, !existed else { continue }
            requirements.append(Requirement(sourceEntity: old.name, condition: .distinct(names), refusal: Refusal(
                reason: .uniquenessBroken, subject: "\(entity.name) (\(constraint.joined(separator: ", ")))",
                message: "the uniqueness constraint is new, and rows of the store share")))
        }
    }

    /// Entities of two source hierarchies may not share one in the destination (Core Data
    /// refuses to merge hierarchies).
    private mutating func refuseMergedHierarchies(_ to: DataModel, _ from: DataModel, _ taking: [String: EntityDescription]) {
        for root in to.rootEntities {
            let members = to.entities.filter { to.root(of: $0).name == root.name }
            let sourceRoots = Set(members.compactMap { taking[$0.name].map { from.root(of: $0).name } })
            if sourceRoots.count > 1 {
                refusals.append(Refusal(reason: .mergedHierarchies, subject: root.name,
                                        message: "its hierarchy takes over entities of \(sourceRoots.count) source hierarchies (\(sourceRoots.sorted().joined(separator: ", "))); Core Data does not merge hierarchies"))
            }
        }
    }
}
