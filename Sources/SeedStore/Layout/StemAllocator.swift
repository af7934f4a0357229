import SeedModel

/// Hands out column stems per table: `ZNAME`, then `ZNAME1`, `ZNAME2` for later entities.
struct StemAllocator {
    private var counts: [String: Int] = [:]
    private var used: Set<String> = []

    mutating func allocate(_ propertyName: String) -> String {
        let base = "Z" + propertyName.uppercased()
        var count = counts[base, default: 0]
        var name = count == 0 ? base : base + String(count)
        while used.contains(name) {
            count += 1
            name = base + String(count)
        }
        counts[base] = count + 1
        used.insert(name)
        return name
    }
}
