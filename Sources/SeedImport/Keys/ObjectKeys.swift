/// The natural keys of one key-declaring entity tree, shared by the plans of its entities: whole
/// (`KeyTable`) when a to-one of the model names these objects by key, so references find their
/// object exactly and may come first; otherwise as fingerprints (`KeyIndex`), 8 bytes a slot, a
/// candidate confirmed by reading its row.
final class ObjectKeys {
    /// The key, as its declaring entity gives it.
    let key: NaturalKey
    /// The keys kept whole; nil when only fingerprints are kept.
    @exclusivity(unchecked) var table: KeyTable?
    @exclusivity(unchecked) var index = KeyIndex()
    /// Reserved `Z_PK`s whose key an object written before was given later (by a merge): the
    /// rows that name the reserved one are pointed at the object by `finish`.
    var moved: [(from: Int64, to: Int64)] = []

    /// How a reference gives the whole key at `offset` in `table`'s arena (for messages).
    func referenceText(at offset: Int) -> String {
        key.text(of: table!.key(at: offset).map { $0.text ?? $0.description })
    }

    init(_ key: NaturalKey, whole: Bool) {
        self.key = key
        table = whole ? KeyTable() : nil
    }
}
