/// One of the seed record's tables that does not fit the store's layout: digest rules
/// (`SEEDGEN_DIGESTED`) naming an entity or column it does not have, a digested column left out
/// or named twice; entity numbers (`SEEDGEN_RENUMBERED`) naming an entity it does not have, or
/// one twice, or leaving record rows under no entity; the record's objects (`SEEDGEN_SEEDED`)
/// holding one key twice; the packed record (`SEEDGEN_PACKED`) holding an object twice, or
/// one of no entity. Nothing reads past such a table: the migration and the update refuse
/// the store.
package struct DamagedRecordError: Error, CustomStringConvertible {
    /// Which table of the record.
    package enum Part {
        /// `SEEDGEN_DIGESTED`.
        case digestRules
        /// `SEEDGEN_RENUMBERED`.
        case entityNumbers
        /// `SEEDGEN_SEEDED`.
        case objects
        /// `SEEDGEN_PACKED`.
        case packedObjects

        /// The table's name.
        package var table: String {
            switch self {
            case .digestRules: SeedRecord.rulesTable
            case .entityNumbers: RecordNumbers.table
            case .objects: SeedRecord.table
            case .packedObjects: SeedRecord.packedTable
            }
        }
    }

    /// The damaged table.
    let part: Part
    let reason: String

    package init(_ part: Part, _ reason: String) {
        self.part = part
        self.reason = reason
    }

    /// The damaged table's name.
    package var table: String { part.table }

    /// What the table is, and what is wrong with it.
    package var description: String {
        let what = switch part {
        case .digestRules: "digest rules"
        case .entityNumbers: "entity numbers"
        case .objects: "objects"
        case .packedObjects: "packed objects"
        }
        return "the seed record's \(what) (\(table)): \(reason)"
    }
}
