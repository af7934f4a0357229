extension PropertyListValue {
    /// How deep a property list read whole may nest (a crafted one refers to itself forever).
    static let nestingLimit = 64
    /// How many objects a property list read whole may expand to (shared objects of a crafted
    /// one are counted each time they are reached, as they are written again).
    static let objectLimit = 100_000

    /// The whole property list in `bytes`.
    init(decoding bytes: [UInt8]) throws(BinaryPropertyList.Failure) {
        let plist = try BinaryPropertyList(bytes: bytes)
        var budget = Self.objectLimit
        try self.init(object: plist.topObject, of: plist, depth: 0, budget: &budget)
    }

    /// Object `index` of `plist` and everything below it, to be written again: what a rewrite
    /// of `Z_METADATA` keeps of keys it does not own. A real is kept as its 8-byte value (a
    /// 4-byte real comes back wider, equal in value); nothing else changes but the sharing of
    /// equal objects, which the writer does not do.
    private init(object index: Int, of plist: BinaryPropertyList, depth: Int, budget: inout Int) throws(BinaryPropertyList.Failure) {
        budget -= 1
        guard budget >= 0 else {
            throw BinaryPropertyList.Failure(description: "the property list expands to more than \(Self.objectLimit) objects")
        }
        guard depth < Self.nestingLimit else {
            throw BinaryPropertyList.Failure(description: "object \(index) nests deeper than \(Self.nestingLimit) levels")
        }
        switch try plist.object(index) {
        case .scalar(let text, let kind):
            switch kind {
            case "true": self = .boolean(true)
            case "false": self = .boolean(false)
            case "string": self = .string(text)
            case "date":
                guard let seconds = Double(text.dropFirst()) else { throw BinaryPropertyList.Failure(description: "object \(index) is a date that is not a number") }
                self = .date(seconds)
            default:
                if let integer = Int64(text) {
                    self = .integer(integer)
                } else if let real = Double(text) {
                    self = .real(real)
                } else {
                    throw BinaryPropertyList.Failure(description: "object \(index) is a number that is not one")
                }
            }
        case .data(let bytes):
            self = .data(Array(bytes))
        case .uid(let number):
            self = .uid(UInt64(number))
        case .array(let items):
            var values: [PropertyListValue] = []
            for item in items { values.append(try PropertyListValue(object: item, of: plist, depth: depth + 1, budget: &budget)) }
            self = .array(values)
        case .dictionary(let pairs):
            var entries: [String: PropertyListValue] = [:]
            for pair in pairs { entries[try plist.string(pair.key)] = try PropertyListValue(object: pair.value, of: plist, depth: depth + 1, budget: &budget) }
            self = .dictionary(entries)
        }
    }
}
