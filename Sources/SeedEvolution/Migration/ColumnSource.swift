import SeedStore

/// Where one destination column takes its values from, for one destination entity's rows
/// copied out of its source entity's (`Carriage.columns`). Source columns are named as the
/// source table has them; the row being copied is `o`.
enum ColumnSource: Equatable {
    /// Left NULL.
    case none
    /// A source column's values, as they are.
    case column(String)
    /// The model's default, in every row (an added attribute).
    case defaultValue(SQLValue)
    /// A source column's values, the model's default where it holds none (an attribute made
    /// required).
    case columnOrDefault(String, SQLValue)
    /// A source to-one's entity column, each number mapped to the destination's.
    case renumbered(String)
    /// The key of the object a destination to-one links to, where the source row does not
    /// hold it.
    case linkedKey(LinkedObject)
    /// The destination entity number of the object `key` names, looked up in source table `table`.
    case entityOfRow(table: String, key: KeySource)
    /// A position column of the only link of a to-many made to-one.
    case linkedPosition(SourceLinks, column: String)
    /// Positions in the inverse's newly ordered list, numbered as the rows are copied, in
    /// `Z_PK` order for each linked object (`key`).
    case numberedInline(key: KeySource)

    /// The object a to-one links to, where the source row does not hold its key.
    enum LinkedObject: Equatable {
        /// The only link of a to-many made to-one (this row its holder; `RowTransfer.requireCarriedShapes`
        /// saw that none has more).
        case onlyLink(SourceLinks)
        /// The object whose kept inverse to-many holds this row, for an added to-one
        /// (`RowTransfer.requireSingleInverseLinks` saw that none is held twice).
        case inverse(SourceLinks)
    }

    /// Where the key of a linked object is.
    enum KeySource: Equatable {
        /// A source column of the row.
        case column(String)
        /// Found through the links.
        case linked(LinkedObject)
    }
}
