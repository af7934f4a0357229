import SeedStore

/// The items of an array a source gives, in order.
///
/// While every item is a string they are held compactly: their bytes in one `UTF8StringList`
/// and each one's line and column in 8 bytes, about 12 bytes and the text a string, where a
/// node each took 56 and a `String` (a `[String]` of a million strings took 60 MB of nodes for
/// 16 MB of JSON). The first item of another kind, or a string this form cannot place (in
/// another file, past 4 GB of text or on a line or column past 2³²), turns the list into nodes;
/// nothing is cut. Either way an item reads back as the node it was given as.
struct SourceItems: RandomAccessCollection {
    /// The items as nodes, once one of them is no compact string.
    private var nodes: [SourceNode] = []
    /// The items while all of them are strings.
    private var strings = UTF8StringList()
    /// Each string's line (high 32 bits) and column.
    private var places: [UInt64] = []
    /// The file every compact string was read from.
    private var file: String?
    private var isCompact = true

    /// No items.
    init() {}

    /// The items `nodes` holds.
    init(_ nodes: [SourceNode]) {
        for node in nodes { append(node) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { isCompact ? strings.count : nodes.count }

    subscript(position: Int) -> SourceNode {
        guard isCompact else { return nodes[position] }
        let place = places[position]
        return .scalar(strings[position], kind: .string, InputLocation(file: file!, line: Int(place >> 32), column: Int(place & 0xFFFF_FFFF)))
    }

    /// Every item's text, when every item is a string (an empty list included); nil otherwise.
    var compactStrings: UTF8StringList? { isCompact ? strings : nil }

    /// Adds `node` at the end.
    mutating func append(_ node: SourceNode) {
        if isCompact, case .scalar(let text, .string, let location) = node,
           file == nil || file == location.file,
           let line = UInt32(exactly: location.line), let column = UInt32(exactly: location.column),
           strings.append(text) {
            file = location.file
            places.append(UInt64(line) << 32 | UInt64(column))
            return
        }
        if isCompact { becomeNodes() }
        nodes.append(node)
    }

    /// Turns the compact strings into nodes, for an item of another kind.
    private mutating func becomeNodes() {
        nodes.reserveCapacity(strings.count + 1)
        for position in strings.indices { nodes.append(self[position]) }
        isCompact = false
        strings = UTF8StringList()
        places = []
    }
}
