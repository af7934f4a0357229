/// One of the seed record's own tables that does not fit the store's layout: digest rules
/// (`SEEDGEN_DIGESTED`) naming an entity or column it does not have, a digested column left out
/// or named twice; entity numbers (`SEEDGEN_RENUMBERED`) naming an entity it does not have, or
/// one twice. Nothing reads past such a table: the migration and the update refuse the store.
struct DamagedRecordError: Error, CustomStringConvertible {
    /// The damaged table.
    let table: String
    let reason: String

    init(_ table: String, _ reason: String) {
        self.table = table
        self.reason = reason
    }

    /// What the table is, and what is wrong with it.
    var description: String {
        let what = table == SeedRecord.rulesTable ? "digest rules" : "entity numbers"
        return "the seed record's \(what) (\(table)): \(reason)"
    }
}
