import SeedModel

/// Core Data's SQLite layout for a model: entity numbers, tables, columns, join tables and
/// indexes, with the exact SQL text Core Data writes.
///
/// Derived from rules read off real stores (see the README's "Store layout" section), never
/// from special cases. Model features whose layout no real store has shown either follow a
/// rule marked *assumed* or are refused with a `LayoutError`.
public struct StoreLayout: Sendable {
    /// The model this layout is for.
    public let model: DataModel
    /// Every entity, in `Z_ENT` order.
    package let entities: [EntityLayout]
    /// One table per root entity, in root order.
    package let tables: [TableLayout]
    /// One join table per many-to-many pair.
    package private(set) var joinTables: [JoinTableLayout]
    /// Every index Core Data makes, in creation order.
    package private(set) var indexes: [IndexLayout]
    /// Every `CREATE` statement in Core Data's creation order (tables and their join tables,
    /// indexes, then the bookkeeping tables).
    package let schema: [String]

    let columnsByProperty: [PropertyKey: String]
    private let entityIndex: [String: Int]

    struct PropertyKey: Hashable {
        var entity: String
        var property: String
    }

    /// `CREATE TABLE Z_PRIMARYKEY ...`, exactly as Core Data writes it.
    package static let primaryKeyTableSQL =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    /// `CREATE TABLE Z_METADATA ...`, exactly as Core Data writes it.
    package static let metadataTableSQL =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    /// `CREATE TABLE Z_MODELCACHE ...`: optional, never written by seedgen.
    package static let modelCacheTableSQL = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// The framework whose layout this is (`NSPersistenceFrameworkVersion`, recorded in the metadata).
    public let era: FrameworkEra

    /// Works out the layout of `model` as Core Data of `era` writes it.
    public init(model: DataModel, era: FrameworkEra = .newest) throws(LayoutError) {
        var builder = LayoutBuilder(model: model, era: era)
        try builder.build()
        self.model = model
        self.era = era
        self.entities = builder.entityLayouts
        self.tables = builder.tables
        self.joinTables = builder.joinTables
        self.indexes = builder.indexes
        self.schema = builder.schema
        self.columnsByProperty = builder.columnsByProperty
        self.entityIndex = Dictionary(uniqueKeysWithValues: builder.entityLayouts.enumerated().map { ($1.name, $0) })
    }

    /// Where the named entity lives.
    package func entity(named name: String) -> EntityLayout? {
        entityIndex[name].map { entities[$0] }
    }

    /// The entity with this `Z_ENT` number.
    package func entity(number: Int) -> EntityLayout? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    /// The table with this name.
    package func table(named name: String) -> TableLayout? {
        tables.first { $0.name == name }
    }

    /// The column holding an attribute or to-one relationship of `entity` (inherited ones too).
    package func column(for property: String, of entity: String) -> String? {
        model.entity(named: entity).flatMap { Self.column(for: property, of: $0, in: columnsByProperty, model: model) }
    }

    /// Looks a property up on the entity and then on its ancestors.
    static func column(for property: String, of entity: EntityDescription,
                       in columns: [PropertyKey: String], model: DataModel) -> String? {
        model.lineage(of: entity).lazy.compactMap { columns[PropertyKey(entity: $0.name, property: property)] }.first
    }

    /// The join table of a many-to-many relationship, from either side.
    package func joinTable(for relationship: String, of entity: String) -> JoinTableLayout? {
        guard let entity = model.entity(named: entity),
              let owner = model.declaringEntity(of: relationship, from: entity)?.name
        else { return nil }
        return joinTables.first {
            ($0.entity == owner && $0.relationship == relationship)
                || ($0.inverseEntity == owner && $0.inverseRelationship == relationship)
        }
    }

    /// This layout with one join table's columns named as a store holds them (a store that Core
    /// Data migrated forward may keep column names of an earlier model version); its index follows.
    package func replacingJoinTable(named name: String, with stored: JoinTableLayout) -> StoreLayout {
        var copy = self
        guard let position = joinTables.firstIndex(where: { $0.name == name }) else { return copy }
        let old = joinTables[position].index
        copy.joinTables[position] = stored
        if let indexPosition = indexes.firstIndex(of: old) { copy.indexes[indexPosition] = stored.index }
        return copy
    }
}
