/// The way the references by key of one to-one are resolved, decided at its first reference
/// (`KeyResolver.route(of:in:destination:at:)`) and kept in its `EntityPlan.ToOneSlot`.
enum KeyRoute {
    /// No reference has come yet.
    case undecided
    /// A simple to-one to a keyed entity: its references go into the row or the store's ledger
    /// (`KeyReferenceLedger`), with no query per row.
    case ledger(KeyReferenceLedger)
    /// Any other to-one: resolved now when the object exists, else at the end
    /// (`SeedRepository.link(_:_:toKey:at:)`).
    case general
}
