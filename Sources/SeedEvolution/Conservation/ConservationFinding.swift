import SeedStore

/// What an engine's check before `COMMIT` found its own result does not hold of the store it
/// started from: a typed fact both engines raise (`MigrationError.Reason.notConserved`,
/// `SeedUpdateError.Reason.notConserved`), made into words only at the edge (`description`).
public enum ConservationFinding: Sendable, Hashable, CustomStringConvertible {
    /// An entity's rows: `before` in the store, `removed` of them removed on purpose (a seed
    /// update's removals), `after` of the others found after the change.
    case rows(entity: String, before: Int, removed: Int, after: Int)
    /// An entity's objects a seed update added (its report's count) against the new rows found.
    case added(entity: String, reported: Int, newRows: Int)
    /// A relationship's links (`Entity.relationship`): `before` in the store, `after` the change.
    case links(relationship: String, before: Int, after: Int)
    /// A property the migration made required (`Entity.property`): rows that hold no value.
    case requiredWithoutValue(property: String, rows: Int)
    /// Objects of an entity the user changed, or made, that no longer hold the user's values.
    case userChangesLost(entity: String, objects: Int)
    /// Links of a many-to-many (`Entity.relationship`) that the user made, or that hold a
    /// user's object, missing after the change.
    case userLinksLost(relationship: String, links: Int)
    /// Links (`Entity.relationship`, a to-one or a many-to-many) that point at an object the
    /// store does not hold after the change.
    case danglingLinks(relationship: String, links: Int)
    /// What `verify`'s structural checks find in the result.
    case structure(Finding)
    /// The count before the first write never ran, so nothing can be checked: refused.
    case notCounted

    public var description: String {
        switch self {
        case let .rows(entity, before, removed, after):
            removed == 0 ? "\(entity): \(before) rows in the store, \(after) after" : "\(entity): \(before) rows before, \(removed) removed, \(after) of the others after"
        case let .added(entity, reported, newRows): "\(entity): \(reported) objects added, \(newRows) new rows"
        case let .links(relationship, before, after): "\(relationship): \(before) links in the store, \(after) after"
        case let .requiredWithoutValue(property, rows): "\(property): required, and \(rows) rows hold no value"
        case let .userChangesLost(entity, objects): "\(entity): \(objects) objects the user changed no longer hold the user's values"
        case let .userLinksLost(relationship, links): "\(relationship): \(links) of the user's links gone"
        case let .danglingLinks(relationship, links): "\(relationship): \(links) links to objects the store no longer holds"
        case .structure(let finding): "verify: \(finding)"
        case .notCounted: "the count before the first write never ran"
        }
    }

    /// The one line an engine's error gives for `findings` (`engine`: "migration", "update").
    static func message(_ findings: [ConservationFinding], engine: String, path: String) -> String {
        "\(path): the \(engine) would not keep what the store holds (\(findings.map(\.description).joined(separator: "; "))); it was rolled back, nothing was changed"
    }
}
