import SeedStore

/// What a store holds, held against its model version's layout before a migration rebuilds
/// its tables: whatever the layout does not describe would be lost or left wrong.
struct StoreContents {
    let database: Database
    let path: String
    /// The source version's layout, as the store holds it.
    let layout: StoreLayout

    /// Core Data's bookkeeping tables and a seed's record (`SeedRecord`), which the migration
    /// rewrites itself.
    static let bookkeepingTables = Set(["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"] + SeedRecord.tables)

    /// Throws `.foreignContent` unless the store holds exactly the layout's tables and columns,
    /// the bookkeeping tables, and no trigger or view; and, `readingRows`, that each table's
    /// rows are of its entities (`requireKnownEntities`). Inside a migration's transaction the
    /// count finds those rows instead, in the pass it makes anyway (`MigrationLedger`).
    func requireOnlyTheModel(readingRows: Bool = true) throws(MigrationError) {
        let described = Set(layout.tables.map(\.name) + layout.joinTables.map(\.name))
        let rows: [[SQLValue]]
        do {
            rows = try database.rows("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        } catch {
            throw MigrationError(reading: error, "\(path): \(error)")
        }
        let advice = "migrate it on the device with Core Data"
        for row in rows {
            let type = row[0].text ?? "", name = row[1].text ?? ""
            if type == "trigger" {
                throw refusal(name, "holds the trigger \(name), which seedgen does not rebuild (Core Data's triggers, for derived attributes and counts, call functions only Core Data registers): \(advice)")
            }
            if type == "view" {
                throw refusal(name, "holds the view \(name), which no Core Data model describes")
            }
            if PersistentHistoryLayout.tables[name] != nil {
                throw refusal(name, "holds Core Data's persistent history (table \(name)), which only Core Data keeps right: \(advice)")
            }
            if !described.contains(name) && !Self.bookkeepingTables.contains(name) {
                throw refusal(name, "holds the table \(name), which the store's model version does not describe (its rows would be lost): \(advice)")
            }
        }
        do {
            let file = StoreFile(path: path, database: database)
            for table in layout.tables {
                let expected = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
                try requireColumns(expected, of: table.name, in: file)
                if readingRows { try requireKnownEntities(in: table.name) }
            }
            for join in layout.joinTables {
                try requireColumns([join.firstColumn, join.secondColumn] + join.orderColumns, of: join.name, in: file)
            }
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError(reading: error, "\(path): \(error)")
        }
    }

    private func requireColumns(_ expected: [String], of table: String, in file: StoreFile) throws {
        guard try file.tableExists(table) else {
            throw refusal(table, "lacks the table \(table), which the store's model version gives it")
        }
        let found = try file.columns(of: table).map(\.name)
        if let extra = found.first(where: { !expected.contains($0) }) {
            throw refusal("\(table).\(extra)", "holds the column \(table).\(extra), which the store's model version does not describe (its values would be lost)")
        }
        if let missing = expected.first(where: { !found.contains($0) }) {
            throw refusal("\(table).\(missing)", "lacks the column \(table).\(missing), which the store's model version gives it")
        }
    }

    /// Each row of `table` is of an entity the table stores: the migration carries rows entity
    /// by entity, and would leave another behind (or renumber it to nothing).
    func requireKnownEntities(in table: String) throws {
        let numbers = layout.entities.filter { $0.table == table }.map { String($0.number) }.joined(separator: ", ")
        guard let row = try database.rows("SELECT Z_PK, Z_ENT FROM \(Database.quote(table)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(numbers)) LIMIT 1").first else { return }
        throw refusal("\(table).Z_ENT", "holds a row of \(table) (Z_PK \(row[0])) whose Z_ENT \(row[1]) is no entity of that table (the migration would leave it behind)")
    }

    private func refusal(_ what: String, _ message: String) -> MigrationError {
        MigrationError(.foreignContent(what), "\(path): the store \(message)")
    }
}
