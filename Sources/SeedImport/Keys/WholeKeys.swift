/// The natural keys of one key-declaring entity tree kept whole (`KeyTable`), for a tree whose
/// objects a to-one names by key; with the keys a merge gave to objects written before (`moved`).
final class WholeKeys {
    /// The key, as its declaring entity gives it.
    let key: NaturalKey
    @exclusivity(unchecked) var table = KeyTable()
    /// Reserved `Z_PK`s whose key an object written before was given later (by a merge): the
    /// rows that name the reserved one are pointed at the object by `KeyResolver.settleReservations`.
    var moved: [(from: Int64, to: Int64)] = []

    init(_ key: NaturalKey) {
        self.key = key
    }

    /// How a reference gives the whole key at `offset` in the table's arena (for messages).
    func referenceText(at offset: Int) -> String {
        key.text(of: table.key(at: offset).map { $0.text ?? $0.description })
    }
}
