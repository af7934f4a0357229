import SeedModel
import SeedStore

/// How a store at one model version becomes a store at another, as Core Data's inferred
/// (lightweight) mapping does it: per entity and property, what is kept, renamed, added,
/// removed or filled with a default, and what Core Data would refuse, and why.
///
/// A plan is made once from the two models (`init(from:to:)`, the only place that sets its
/// properties) and never changes after; what one store's rows decide of it (a required attribute
/// added to an entity that has rows, what the migration removes, a lookalike rename) is a
/// second value, its `StoreAssessment`.
public struct MigrationPlan: Sendable {
    /// The source version's name.
    public internal(set) var sourceVersion: String
    /// The destination version's name.
    public internal(set) var destinationVersion: String
    /// Every destination entity, in the destination model's order.
    public internal(set) var entities: [EntityStep]
    /// Source entities no destination entity takes over: their rows are deleted.
    public internal(set) var removedEntities: [String]
    /// Why Core Data would not migrate between the two models; empty when it would (a store's
    /// rows may refuse more: `MigrationError.Reason.refused` then carries every refusal).
    public internal(set) var refusals: [Refusal]
    /// What the migration does that a team most likely did not mean, from the models alone (it
    /// is carried out all the same, as Core Data would): see ``Warning/Reason``.
    package internal(set) var warnings: [Warning] = []
    /// What only the store's rows decide (`assessment(of:path:source:)` turns a broken one into
    /// a refusal).
    package internal(set) var requirements: [Requirement]

    /// A condition on the source store's rows.
    package struct Requirement: Sendable {
        /// What the rows must be like.
        package enum Condition: Sendable {
            /// There are none.
            case noRows
            /// Each holds a value for this source property.
            case noNulls(String)
            /// None holds a value for any of these source properties.
            case noValues([String])
            /// No two hold the same values for these source properties (those without a NULL;
            /// none: at most one row).
            case distinct([String])
        }

        /// The source entity whose rows (its sub-entities' included) are looked at.
        package var sourceEntity: String
        /// What they must be like.
        package var condition: Condition
        /// The refusal when the rows break it (`assessment(of:path:source:)` adds the clashing values).
        package var refusal: Refusal
    }

    /// Whether Core Data would migrate between the two models (a store's rows may still refuse:
    /// `StoreMigrator.check()` throws then).
    public var isPossible: Bool { refusals.isEmpty }

    /// Source entity name → the destination entity that takes its rows over.
    package var successors: [String: String] {
        Dictionary(entities.compactMap { step in step.source.map { ($0, step.name) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Build-time keys (`--key`: entity → key attributes, source names) under the destination's
    /// names: an entity's key follows its renames, and goes when the entity, or one of its key
    /// attributes, goes or has its values changed (its objects are then named otherwise).
    package func carried(buildKeys: [String: [String]]) -> [String: [String]] {
        var carried: [String: [String]] = [:]
        for step in entities {
            guard let source = step.source, let key = buildKeys[source] else { continue }
            let renamed = key.compactMap { attribute in
                step.properties.first { $0.source == attribute && $0.change != .removed && $0.change != .refused && $0.change.filledDefault == nil }?.name
            }
            if renamed.count == key.count { carried[step.name] = renamed }
        }
        return carried
    }

    /// Whether the two versions store the same: every entity and property kept under its name.
    public var changesNothing: Bool {
        removedEntities.isEmpty && entities.allSatisfy { step in
            step.source == step.name && step.properties.allSatisfy { $0.source == $0.name && $0.change == .kept }
        }
    }

    /// One destination entity.
    public struct EntityStep: Sendable {
        /// The entity's name in the destination.
        public var name: String
        /// The source entity whose rows it takes over; nil for an entity the migration adds.
        public var source: String?
        /// Its stored properties (inherited included), in the destination's order, then the
        /// source's properties it drops.
        public var properties: [PropertyStep]
    }

    /// One stored property of a destination entity, or one a source entity loses.
    public struct PropertyStep: Sendable {
        /// The property's name in the destination (in the source, for `.removed`).
        public var name: String
        /// The source property it takes its values from (another name: renamed); nil when added.
        public var source: String?
        /// What happens to it.
        public var change: Change
    }

    /// What happens to one property: a typed fact, turned into words only at the edge (the
    /// command line, a report), never read as words by an engine.
    public enum Change: Sendable, Hashable {
        /// Kept as it is (under another name when its step's `source` differs from its name).
        case kept
        /// New: rows get the model's default (nil: none, the value stays NULL).
        case added(defaultValue: String?)
        /// Gone: its values are dropped.
        case removed
        /// Kept in a new shape: each aspect that changed is one fact of the `Reshaping`.
        case reshaped(Reshaping)
        /// Core Data would not infer this: `Refusal` says why.
        case refused

        /// The default that rows holding no value get (made required with a default); nil otherwise.
        package var filledDefault: String? {
            if case .reshaped(let reshaping) = self { reshaping.filledDefault } else { nil }
        }

        /// Whether the property's values or links are carried as they are (kept, or only its
        /// optionality changed with no default filled in).
        var carriesValuesAsTheyAre: Bool {
            switch self {
            case .kept: true
            case .reshaped(let reshaping): reshaping.cardinality == nil && reshaping.ordering == nil && reshaping.filledDefault == nil
            case .added, .removed, .refused: false
            }
        }
    }

    /// How a property keeps its values or links in a new shape: one typed fact per aspect that
    /// changed, nil where it did not. Several may hold at once (a to-many made a required
    /// to-one changes its cardinality and its optionality).
    public struct Reshaping: Sendable, Hashable {
        /// A relationship's cardinality: what it became.
        public enum Cardinality: Sendable, Hashable {
            /// A to-one made to-many.
            case toMany
            /// A to-many made to-one (each object's only link is kept; more are refused).
            case toOne
        }

        /// A to-many's ordering: what it became.
        public enum Ordering: Sendable, Hashable {
            /// Unordered made ordered (positions given in `Z_PK` order: *assumed*).
            case ordered
            /// Ordered made unordered (positions dropped).
            case unordered
        }

        /// Optionality: what it became.
        public enum Optionality: Sendable, Hashable {
            /// Required made optional.
            case optional
            /// Optional made required; rows holding no value get `default` (nil: no default,
            /// so rows must hold a value: a requirement of the plan).
            case required(default: String?)
        }

        /// The cardinality change, if any.
        public var cardinality: Cardinality?
        /// The ordering change, if any.
        public var ordering: Ordering?
        /// The optionality change, if any.
        public var optionality: Optionality?

        /// A reshaping with the given facts.
        package init(cardinality: Cardinality? = nil, ordering: Ordering? = nil, optionality: Optionality? = nil) {
            self.cardinality = cardinality
            self.ordering = ordering
            self.optionality = optionality
        }

        /// Whether no aspect changed.
        var isEmpty: Bool { cardinality == nil && ordering == nil && optionality == nil }

        /// The default that rows holding no value get; nil when none is filled in.
        package var filledDefault: String? {
            if case .required(let value?) = optionality { value } else { nil }
        }
    }

    /// Something the migration removes, with how much of it a store holds.
    package struct Removal: Sendable, Hashable {
        /// What is removed, in the source's names.
        package enum Subject: Sendable, Hashable {
            /// An entity: its own rows are deleted.
            case entity(String)
            /// An attribute of an entity: its values go.
            case attribute(entity: String, name: String)
            /// A relationship of an entity: its links go.
            case relationship(entity: String, name: String)
        }

        /// What is removed.
        package var subject: Subject
        /// The entity's own rows, the attribute's values (rows not NULL), or the relationship's
        /// links held by the entity's own rows.
        package var count: Int
    }

    /// Something the migration does that loses users' data in a way teams rarely mean.
    package struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// What is warned of, for a program to switch on.
        package enum Reason: String, Sendable {
            /// A renaming identifier names a source element by its name while that element has
            /// an identifier of its own: Core Data matches identifiers, so nothing is carried.
            case identifierNamesAnotherElement
            /// An attribute holding values is removed and one of the same type added to the same
            /// entity, with no renaming identifier between them.
            case looksLikeRename
        }

        /// The reason.
        package var reason: Reason
        /// `Entity.property` or `Entity`, in the destination's names.
        package var subject: String
        /// What was found and what to do, in words.
        package var message: String
        /// The renaming identifier the warning advises giving `subject` (`looksLikeRename`: the
        /// one Core Data would match, so the values are carried); nil for none.
        package var advisedIdentifier: String? = nil

        package var description: String { "\(subject): \(message)" }
    }

    /// Why a migration cannot be done.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// What refuses it, for a program to switch on.
        public enum Reason: String, Sendable {
            /// An attribute's type changed (Core Data infers no type change).
            case typeChanged
            /// A property became an attribute from a relationship, or the other way round.
            case kindChanged
            /// A required property without a default was added to, or made required on, an
            /// entity whose rows hold no value for it.
            case requiredWithoutValue
            /// Entities of two source hierarchies share one in the destination.
            case mergedHierarchies
            /// A new uniqueness constraint, which rows of the store break.
            case uniquenessBroken
            /// A relationship now points at an entity that does not take over its old destination.
            case destinationChanged
            /// Two destination entities, or two properties of one, take over the same source
            /// element (the same renaming identifier, or one's identifier the other's name).
            case ambiguousRenaming
            /// An element of a Composite carries a renaming identifier (how Core Data maps a
            /// renamed element is not known).
            case elementRenamed
        }

        /// The reason.
        public var reason: Reason
        /// `Entity.property` or `Entity`, in the destination's names.
        public var subject: String
        /// What was found, in words.
        public var message: String

        public var description: String { "\(subject): \(message)" }
    }
}
