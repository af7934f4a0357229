import SeedModel

extension SourceItem {
    /// What has been read, as the dictionary frame of the tree reader: its entries, its pending
    /// key and the keys seen (a nested container has started).
    func frame() -> (entries: [(key: String, value: SourceNode)], pendingKey: String?, keys: Set<[UInt8]>) {
        let entries = self.entries.map { (text($0.key), SourceNode.scalar(text($0.value), kind: $0.kind, location(of: $0))) }
        let pending = pendingKey.map { text($0) }
        return (entries, pending, Set((entries.map(\.0) + (pending.map { [$0] } ?? [])).map { Array($0.utf8) }))
    }
}
