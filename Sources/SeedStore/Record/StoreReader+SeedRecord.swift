extension StoreReader {
    /// The source identifiers (`seedgen:id`, `@id`) the store's seed record (or a seed's table of
    /// identifiers) names objects by, by `Z_ENT` (of `layout`, the store's) and `Z_PK`; none when
    /// the store has neither (so that a dump gives them back and its rebuild names the same
    /// objects the same way).
    package func recordedIdentifiers(layout: StoreLayout) throws -> [Int: [Int64: String]] {
        guard let source = try SeedRecord.identifierSource(in: file.database) else { return [:] }
        let numbers = try RecordNumbers(in: file.database, layout: layout)
        var identifiers: [Int: [Int64: String]] = [:]
        let statement = try file.database.prepare("SELECT ENTITY, PK, substr(KEY, 3) FROM \(source) WHERE \(ObjectNames.namesByIdentifier("KEY"))")
        while try statement.step() {
            let row = statement.row()
            guard let recorded = row[0].integer, let entity = numbers.entity(recordedAs: Int(recorded)), let primaryKey = row[1].integer, let part = row[2].text,
                  case .text(let identifier) = ObjectNames.value(ofPart: part) else { continue }
            identifiers[Int(entity), default: [:]][primaryKey] = identifier
        }
        return identifiers
    }
}
