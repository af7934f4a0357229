/// The natural keys of one key-declaring entity tree, shared by the plans of its entities, kept
/// in one of two ways chosen once per build (`KeyResolver.objectKeys(declaring:)`).
enum ObjectKeys {
    /// Kept whole, because a to-one of the model names these objects by key: references find
    /// their object exactly, and may come before it (`WholeKeys`).
    case whole(WholeKeys)
    /// Kept as fingerprints, 8 bytes a slot: a candidate is confirmed by reading its row (`KeyIndex`).
    case fingerprints(KeyIndex)
}
