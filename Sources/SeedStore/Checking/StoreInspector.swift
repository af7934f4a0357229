import Foundation

/// Reads a `StoreReport` from a store file without changing it.
package enum StoreInspector {
    /// Inspects the store at `path`.
    package static func inspect(_ path: String) throws -> StoreReport {
        let file = try StoreFile(path: path)
        let database = file.database
        let header = file.header()
        let primaryKeys = try file.primaryKeyRows()
        let tables = StoreFile.tables(for: primaryKeys)
        var entities: [StoreReport.Entity] = []
        for row in primaryKeys {
            let table = tables[row.number] ?? ""
            let count = try file.tableExists(table)
                ? try database.scalar("SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", [.integer(Int64(row.number))])?.integer.map(Int.init)
                : nil
            entities.append(.init(number: row.number, name: row.name, superNumber: row.superNumber,
                                  table: table, rows: count, maxPrimaryKey: row.max))
        }
        let metadataRow = try database.metadataRow()
        let metadata = try metadataRow?.plist.map { bytes throws -> StoreMetadata in try StoreMetadata(decoding: bytes) }
        var pragmas: [String: String] = [:]
        for name in ["page_size", "auto_vacuum", "encoding", "user_version", "application_id"] {
            pragmas[name] = try database.scalar("PRAGMA \(name)").map { $0.text ?? $0.integer.map(String.init) ?? "\($0)" }
        }
        if header.count >= 20 {
            pragmas["journal_mode"] = header[18] == 2 ? "wal" : "delete (rollback journal)"
        }
        if header.count >= 100 {
            let version = header[96..<100].reduce(0) { $0 << 8 | Int($1) }
            pragmas["sqlite_version"] = "\(version / 1_000_000).\(version / 1000 % 1000).\(version % 1000)"
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return StoreReport(
            path: path, fileSize: (attributes?[.size] as? NSNumber)?.intValue ?? 0, entities: entities,
            uuid: metadataRow?.uuid, frameworkVersion: metadata?.frameworkVersion,
            versionIdentifiers: metadata?.versionIdentifiers ?? [],
            versionHashes: metadata?.versionHashes.mapValues { Data($0).base64EncodedString() } ?? [:],
            metadata: metadata?.values ?? [:],
            generator: metadata?.generator, contentDigest: metadata?.contentDigest,
            pragmas: pragmas,
            tables: try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.first?.text },
            space: try? space(of: database)
        )
    }

    /// The bytes of each table with its indexes, from SQLite's `dbstat` (throws where SQLite
    /// was built without it).
    static func space(of database: Database) throws -> StoreReport.Space {
        var tableOf: [String: String] = [:]
        for row in try database.rows("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')") {
            if let name = row[0].text, let table = row[1].text { tableOf[name] = table }
        }
        var byTable: [String: Int] = [:]
        for row in try database.rows("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name") {
            guard let name = row[0].text else { continue }
            byTable[tableOf[name] ?? name, default: 0] += Int(row[1].integer ?? 0)
        }
        let record = SeedRecord.tables.reduce(0) { $0 + (byTable[$1] ?? 0) }
        return StoreReport.Space(byTable: byTable, total: byTable.values.reduce(0, +), seedRecord: record)
    }
}
