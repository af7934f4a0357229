extension StoreReader {
    /// The source identifiers (`seedgen:id`, `@id`) the store's seed record names objects by,
    /// by `Z_ENT` (of `layout`, the store's) and `Z_PK`; none when the store has no record (so
    /// that a dump gives them back and its rebuild names the same objects the same way).
    package func recordedIdentifiers(layout: StoreLayout) throws -> [Int: [Int64: String]] {
        guard try SeedRecord.isPresent(in: file.database) else { return [:] }
        let numbers = try RecordNumbers(in: file.database, layout: layout)
        var identifiers: [Int: [Int64: String]] = [:]
        let statement = try file.database.prepare("SELECT ENTITY, PK, substr(KEY, 3) FROM \(SeedRecord.table) WHERE \(ObjectNames.namesByIdentifier("KEY"))")
        while try statement.step() {
            let row = statement.row()
            guard let recorded = row[0].integer, let entity = numbers.entity(recordedAs: Int(recorded)), let primaryKey = row[1].integer, let part = row[2].text,
                  case .text(let identifier) = ObjectNames.value(ofPart: part) else { continue }
            identifiers[Int(entity), default: [:]][primaryKey] = identifier
        }
        return identifiers
    }
}
