import SeedModel

/// How one store names its objects for a diff: a TEMP table of the store's own read-only
/// connection, `seedgen_names (tbl, pk, entity, key)`, one row per object, indexed by entity
/// and key. SQLite keeps it in its temporary file and sorts it there, so memory stays flat in
/// the number of objects.
///
/// A key is text that is equal in two stores exactly when the values that name the object
/// are equal byte for byte: `k` and the key attributes' values when the entity has a natural
/// key (a build-time key recorded in the store, else the model's uniqueness constraint) and
/// the object gives all of them; otherwise `c` and the values of every attribute (the object
/// is named by what it holds). Objects whose names are equal get ` #2`, ` #3`, … in `Z_PK` order.
struct ObjectNames {
    /// What names one concrete entity's objects.
    struct Naming {
        /// The key attributes, when the entity has a natural key.
        var keyAttributes: [AttributeDescription]
        /// Every stored attribute of the entity, in name order (the content that names an
        /// object without a key).
        var contentAttributes: [AttributeDescription]
    }

    /// Naming by concrete entity name.
    let namings: [String: Naming]
    /// The position of each table in the layout (`tbl`), by table name.
    let tableNumbers: [String: Int]

    /// The namings of `layout`'s concrete entities under `buildKeys`.
    init(layout: StoreLayout, buildKeys: [String: [String]]) {
        var namings: [String: Naming] = [:]
        for entity in layout.model.entities where !entity.isAbstract {
            let attributes = layout.model.allAttributes(of: entity).filter { layout.column(for: $0.name, of: entity.name) != nil }
            let key = layout.model.naturalKey(of: entity, buildKeys: buildKeys)
            let keyAttributes = key?.names.compactMap { name in attributes.first { $0.name == name } } ?? []
            namings[entity.name] = Naming(keyAttributes: keyAttributes.count == key?.names.count ? keyAttributes : [],
                                          contentAttributes: attributes)
        }
        self.namings = namings
        tableNumbers = Dictionary(uniqueKeysWithValues: layout.tables.enumerated().map { ($1.name, $0) })
    }

    /// One value as a word of a key: `n` (NULL), `i42`, `r` and 17 significant digits, `t` or
    /// `b` and the hexadecimal bytes (text compared byte for byte, NUL included).
    static func keyPart(_ expression: String) -> String {
        """
        CASE typeof(\(expression)) WHEN 'integer' THEN 'i' || \(expression) \
        WHEN 'real' THEN 'r' || printf('%!.17g', \(expression)) WHEN 'text' THEN 't' || hex(\(expression)) \
        WHEN 'blob' THEN 'b' || hex(\(expression)) ELSE 'n' END
        """
    }

    /// Fills `temp.seedgen_names` for every concrete entity of `layout` in `database`.
    func create(in database: Database, layout: StoreLayout) throws(SQLiteError) {
        try database.execute("""
            CREATE TEMP TABLE seedgen_names (tbl INTEGER, pk INTEGER, entity TEXT, key TEXT, PRIMARY KEY (tbl, pk)) WITHOUT ROWID
            """)
        for entity in layout.entities where !entity.isAbstract {
            guard let naming = namings[entity.name] else { continue }
            func parts(_ attributes: [AttributeDescription]) -> [String] {
                attributes.map { Self.keyPart(Database.quote(layout.column(for: $0.name, of: entity.name)!)) }
            }
            let content = (["'c'"] + parts(naming.contentAttributes)).joined(separator: " || ' ' || ")
            var base = content
            if !naming.keyAttributes.isEmpty {
                let given = naming.keyAttributes.map { "\(Database.quote(layout.column(for: $0.name, of: entity.name)!)) IS NOT NULL" }
                let key = (["'k'"] + parts(naming.keyAttributes)).joined(separator: " || ' ' || ")
                base = "CASE WHEN \(given.joined(separator: " AND ")) THEN \(key) ELSE \(content) END"
            }
            let statement = try database.prepare("""
                INSERT INTO temp.seedgen_names (tbl, pk, entity, key)
                SELECT ?, Z_PK, ?, base || CASE WHEN n > 1 THEN ' #' || n ELSE '' END FROM (
                  SELECT Z_PK, base, ROW_NUMBER() OVER (PARTITION BY base ORDER BY Z_PK) AS n FROM (
                    SELECT Z_PK, \(base) AS base FROM \(Database.quote(entity.table)) WHERE Z_ENT = ?))
                """)
            try statement.bind([.integer(Int64(tableNumbers[entity.table]!)), .text(entity.name), .integer(Int64(entity.number))])
            try statement.run()
        }
        try database.execute("CREATE INDEX temp.seedgen_names_by_key ON seedgen_names (entity, key)")
    }

    /// The object a key names, its values decoded (for reports).
    func object(entity: String, key: String) -> DiffObject {
        let naming = namings[entity]
        var words = key.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var ordinal = 1
        if let last = words.last, last.hasPrefix("#"), let number = Int(last.dropFirst()) {
            ordinal = number
            words.removeLast()
        }
        let isKeyed = words.first == "k"
        let attributes = (isKeyed ? naming?.keyAttributes : naming?.contentAttributes) ?? []
        let values = words.dropFirst().map(Self.value(ofPart:))
        return DiffObject(entity: entity, isKeyed: isKeyed,
                          values: zip(attributes, values).map { DiffObject.Value(attribute: $0, value: $1) }, ordinal: ordinal)
    }

    /// The value one word of a key stands for (the inverse of `keyPart`).
    static func value(ofPart part: String) -> SQLValue {
        let body = part.dropFirst()
        switch part.first {
        case "i": return Int64(body).map(SQLValue.integer) ?? .null
        case "r": return Double(body).map(SQLValue.real) ?? .null
        case "t": return .text(String(decoding: bytes(ofHex: body), as: UTF8.self))
        case "b": return .blob(bytes(ofHex: body))
        default: return .null
        }
    }

    private static func bytes(ofHex hex: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            let nibble = character <= 57 ? character &- 48 : character &- 55
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
