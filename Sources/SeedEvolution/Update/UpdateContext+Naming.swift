import SeedModel
import SeedStore

extension UpdateContext {
    /// An object of `entity` named by `key`, for the report. One the record names by a digest
    /// of its values is named by the values themselves, as `seedgen diff` names it, read from
    /// its row `pk` of `schema` (`seed` for the new seed's objects, `main` for the store's).
    func object(_ entity: EntityLayout, key: String, row pk: Int64?, in schema: String = "main") throws -> SeedUpdateReport.Object {
        // Known by its key's check alone (a packed record's object whose row no longer names it
        // so): named by its key as the row holds it now, where it has one.
        if key.hasPrefix(SeedRecord.checkKeyPrefix), let pk, let keyed = names.reading(schema).keySQL(of: entity.name, alias: "t"),
           let current = try database.scalar("SELECT \(keyed.key) FROM \(schema).\(table(entity)) t WHERE t.Z_PK = ? AND \(keyed.given)", [.integer(pk)])?.text {
            return SeedUpdateReport.Object(entity: entity.name, key: names.object(entity: entity.name, key: current).keyText)
        }
        let named = names.object(entity: entity.name, key: key)
        guard named.contentDigest != nil, let pk, let naming = names.naming(of: entity.name), !naming.contentAttributes.isEmpty,
              let values = try database.rows("SELECT \(naming.contentAttributes.map { Database.quote($0.column) }.joined(separator: ", ")) FROM \(schema).\(table(entity)) WHERE Z_PK = ?",
                                              [.integer(pk)]).first else {
            return SeedUpdateReport.Object(entity: entity.name, key: named.keyText)
        }
        let byValues = NamedObject(entity: entity.name, isKeyed: false, values: zip(naming.contentAttributes, values).map { NamedObject.Value(attribute: $0.attribute, value: $1) },
                                   ordinal: named.ordinal)
        return SeedUpdateReport.Object(entity: entity.name, key: byValues.keyText, isNamedByValues: true)
    }
}
