import Foundation

/// What `seedgen inspect` shows of a store: entities with row counts, metadata and pragmas.
package struct StoreReport: Sendable, Codable {
    /// One entity of the store.
    package struct Entity: Sendable, Codable {
        /// `Z_ENT`.
        package var number: Int
        /// `Z_NAME`.
        package var name: String
        /// `Z_SUPER`.
        package var superNumber: Int
        /// The table holding its rows.
        package var table: String
        /// Rows of exactly this entity; nil when its table is missing.
        package var rows: Int?
        /// `Z_MAX`.
        package var maxPrimaryKey: Int
    }

    /// The store file.
    package var path: String
    /// Size in bytes.
    package var fileSize: Int
    /// Entities in `Z_ENT` order.
    package var entities: [Entity]
    /// `Z_METADATA.Z_UUID`.
    package var uuid: String?
    /// `NSPersistenceFrameworkVersion`.
    package var frameworkVersion: Int?
    /// `NSStoreModelVersionIdentifiers`.
    package var versionIdentifiers: [String]
    /// Entity name -> base64 version hash.
    package var versionHashes: [String: String]
    /// Every metadata key (Core Data's, seedgen's, an app's own) with its value in short
    /// words: a scalar's text, else its kind and size.
    package var metadata: [String: String] = [:]
    /// seedgen's keys, when seedgen wrote the store.
    package var generator: String?
    package var contentDigest: String?
    /// Page size, auto-vacuum, journal mode (from the header), encoding, user version.
    package var pragmas: [String: String]
    /// Every table in the file.
    package var tables: [String]
    /// The bytes the store's tables take, indexes included; nil where SQLite has no `dbstat`.
    package var space: Space?

    /// The bytes of the pages each table and its indexes take (SQLite's `dbstat`).
    package struct Space: Sendable, Codable {
        /// Each table's bytes, its indexes' included.
        package var byTable: [String: Int]
        /// The bytes of every table (the file less its free pages).
        package var total: Int
        /// The bytes of seedgen's own tables: a seed's model (and identifiers) and, in a store
        /// installed to be updated, the record of its seed (`SEEDGEN_SEEDED` and the tables
        /// beside it): what the file holds beyond Core Data's tables.
        package var seedRecord: Int
    }
}
