import SeedModel

/// How one store names its objects for a diff: a TEMP table of the store's own read-only
/// connection, `seedgen_names (tbl, pk, entity, key)`, one row per object, indexed by entity
/// and key. SQLite keeps it in its temporary file and sorts it there, so memory stays flat in
/// the number of objects.
///
/// A key is text that is equal in two stores exactly when the values that name the object
/// are equal byte for byte: `k` and the key attributes' values when the entity has a natural
/// key (a build-time key recorded in the store, else the model's uniqueness constraint) and
/// the object gives all of them; else `i` and the source identifier its build gave it
/// (`seedgen:id`, `@id`), when the seed record keeps one; otherwise `c` and the values of every
/// attribute (the object is named by what it holds), and, when it has an owner (`owner(of:)`: a
/// to-one into a keyed entity whose inverse is a to-many, a recipe's ingredient), ` @` and its
/// owner's key in hexadecimal (` @-` when it has none): an ingredient is named within its recipe.
/// Objects named by their values whose names are equal get ` #2`, ` #3`, … in `Z_PK` order,
/// so the ordinal counts equal objects of one owner, and removing another owner renumbers none.
package struct ObjectNames {
    /// Where the identifiers a build gave its objects are kept: a table of `(ENTITY, PK, KEY)`
    /// rows whose `KEY` is an identifier name (`i t…`), for the entity numbered `entity` there
    /// (the seed record; or, while a store is built, the build's identifiers).
    package struct Identifiers {
        var table: String
        var entity: Int

        package init(table: String, entity: Int) {
            self.table = table
            self.entity = entity
        }
    }

    /// What names one concrete entity's objects: attributes with the columns that store them.
    package struct Naming {
        /// The key attributes, when the entity has a natural key.
        package var keyAttributes: [(attribute: AttributeDescription, column: String)]
        /// Every stored attribute of the entity, in name order (the content that names an
        /// object without a key).
        package var contentAttributes: [(attribute: AttributeDescription, column: String)]
        /// For a key through a to-one (`--key Ingredient=recipe,name`): the to-one, whose
        /// object's key names the object with `keyAttributes`' values.
        package var keyOwner: KeyOwner? = nil
    }

    /// The to-one a key names beside attributes: an object is named within the object it
    /// points at, by that object's key (which may in turn name a to-one).
    package struct KeyOwner {
        /// The to-one's name.
        package var relationship: String
        /// The column that holds the owner's `Z_PK`.
        package var column: String
        /// The owner's entity: concrete, with a key of its own.
        package var owner: EntityLayout
    }

    /// The layout whose objects are named.
    package let layout: StoreLayout
    /// The build-time keys in force.
    let buildKeys: [String: [String]]
    /// Whether an object without a key is named by a digest of its values (`c` and 32
    /// hexadecimal digits: what a seed record keeps, whatever the values' size) rather than by
    /// the values themselves (what a diff shows).
    let contentByDigest: Bool
    /// The position of each table in the layout (`tbl`), by table name.
    package let tableNumbers: [String: Int]
    /// The schema the named store's tables are read from on the connection (`main`, or the
    /// name a store is attached under).
    package let schema: String
    /// Entities whose objects named by their values are named without their owner, as seedgen
    /// named them before owners (a seed record written so: `legacyOwnerless(in:)`).
    package let namedWithoutOwner: Set<String>

    /// Names for `layout`'s objects under `buildKeys`, in the store attached as `schema`.
    package init(layout: StoreLayout, buildKeys: [String: [String]], contentByDigest: Bool = false, schema: String = "main",
                 namedWithoutOwner: Set<String> = []) {
        self.layout = layout
        self.buildKeys = buildKeys
        self.contentByDigest = contentByDigest
        self.schema = schema
        self.namedWithoutOwner = namedWithoutOwner
        tableNumbers = Dictionary(uniqueKeysWithValues: layout.tables.enumerated().map { ($1.name, $0) })
    }

    /// These names, for the store attached as `schema`.
    package func reading(_ schema: String) -> ObjectNames {
        ObjectNames(layout: layout, buildKeys: buildKeys, contentByDigest: contentByDigest, schema: schema, namedWithoutOwner: namedWithoutOwner)
    }

    /// The owner of the concrete `entity`'s objects named by their values: its first to-one (in
    /// name order) into a concrete entity that has a natural key, whose inverse is a to-many (a
    /// recipe's ingredients); nil when it has none, or is named without owners.
    package func owner(of entity: String) -> (column: String, owner: EntityLayout, keyColumns: [String])? {
        guard !namedWithoutOwner.contains(entity), let description = layout.model.entity(named: entity) else { return nil }
        let toOnes = layout.model.allRelationships(of: description).filter { !$0.isToMany && !$0.isTransient }.sorted { DataModel.namePrecedes($0.name, $1.name) }
        for relationship in toOnes {
            guard layout.model.inverse(of: relationship)?.isToMany == true, let column = layout.column(for: relationship.name, of: entity),
                  let owner = layout.entity(named: relationship.destinationEntity),
                  let key = naming(of: owner.name)?.keyAttributes, !key.isEmpty else { continue }
            return (column, owner, key.map(\.column))
        }
        return nil
    }

    /// SQL of the word that names the owner of the row `alias` of the concrete `entity` (` @`
    /// and the hexadecimal of the owner's key, ` @-` without one), read in `schema`; empty for
    /// an entity without an owner.
    func ownerWord(of entity: String, alias: String) -> String {
        guard let (column, owner, _) = owner(of: entity), let key = keySQL(of: owner.name, alias: "o") else { return "" }
        return " || ' @' || IFNULL((SELECT hex(\(key.key)) FROM \(schema).\(Database.quote(owner.table)) o WHERE o.Z_PK = \(alias).\(Database.quote(column)) AND \(key.given)), '-')"
    }

    /// SQL of the key of the row `alias` of the concrete `entity` (`k` and its key's values,
    /// then, for a key through a to-one, ` @` and its owner's key in hexadecimal), and SQL
    /// that the row gives that key whole (every value, and an owner that gives its own); nil
    /// for an entity without a key. A row of a key through a to-one whose owner gives no key is
    /// named by its values: its key is not given.
    package func keySQL(of entity: String, alias: String, depth: Int = 0) -> (key: String, given: String)? {
        guard let naming = naming(of: entity), !naming.keyAttributes.isEmpty else { return nil }
        let columns = naming.keyAttributes.map { "\(alias).\(Database.quote($0.column))" }
        var key = Self.words(["'k'"] + columns.map(Self.keyPart))
        var given = columns.map { "\($0) IS NOT NULL" }
        if let keyOwner = naming.keyOwner {
            // `naming(of:)` took the owner only with a key of its own and no cycle.
            guard let ownerKey = keySQL(of: keyOwner.owner.name, alias: "o\(depth + 1)", depth: depth + 1) else { return nil }
            let owner = "(SELECT hex(\(ownerKey.key)) FROM \(schema).\(Database.quote(keyOwner.owner.table)) o\(depth + 1) "
                + "WHERE o\(depth + 1).Z_PK = \(alias).\(Database.quote(keyOwner.column)) AND \(ownerKey.given))"
            key = "(\(key)) || ' @' || \(owner)"
            given.append("\(owner) IS NOT NULL")
        }
        return (key, given.joined(separator: " AND "))
    }

    /// The entities of `layout` named without their owner in a seed record: none when it names
    /// objects within their owners (`StoreMetadata.namesWithinOwners`), else every one.
    package static func namedWithoutOwner(recordNamesWithinOwners: Bool, in layout: StoreLayout) -> Set<String> {
        recordNamesWithinOwners ? [] : Set(layout.entities.map(\.name))
    }

    /// What names the concrete `entity`'s objects; nil for an abstract or unknown entity.
    /// Worked out when asked (from its table's columns in one pass), never kept for every
    /// entity at once: a deep hierarchy would hold each inherited attribute once per level.
    package func naming(of entity: String) -> Naming? {
        naming(of: entity, within: [])
    }

    /// `naming(of:)`, `within` the entities whose keys name this one's through a to-one: one of
    /// them again is a cycle, and the key is none (a build refuses such keys; a store's
    /// metadata may still hold them).
    private func naming(of entity: String, within: Set<String>) -> Naming? {
        guard let placed = layout.entity(named: entity), !placed.isAbstract, let description = layout.model.entity(named: entity),
              let table = layout.table(named: placed.table) else { return nil }
        let owners = Set(layout.model.lineage(of: description).map(\.name))
        var attributes: [(attribute: AttributeDescription, column: String)] = []
        for column in table.columns {
            guard case .attribute(let owner, let name, _) = column.role, owners.contains(owner),
                  let attribute = layout.model.entity(named: owner)?.storedAttribute(named: name) else { continue }
            attributes.append((attribute, column.name))
        }
        attributes.sort { DataModel.namePrecedes($0.attribute.name, $1.attribute.name) }
        guard let key = layout.model.naturalKey(of: description, buildKeys: buildKeys) else {
            return Naming(keyAttributes: [], contentAttributes: attributes)
        }
        var keyAttributes: [(attribute: AttributeDescription, column: String)] = []
        var keyOwner: KeyOwner?
        // Only a build's key names a to-one; a model's constraint that does is no key here, as before.
        let isBuildKey = buildKeys[key.declaringEntity.name] == key.names
        for name in key.names {
            if let attribute = attributes.first(where: { $0.attribute.name == name }) {
                keyAttributes.append(attribute)
            } else if isBuildKey, keyOwner == nil, let owner = self.keyOwner(of: description, named: name, within: within.union([entity])) {
                keyOwner = owner
            } else {
                return Naming(keyAttributes: [], contentAttributes: attributes)
            }
        }
        return Naming(keyAttributes: keyAttributes, contentAttributes: attributes, keyOwner: keyAttributes.isEmpty ? nil : keyOwner)
    }

    /// The to-one `name` of `entity` as a key's owner: stored, into a concrete entity whose
    /// objects have a key (not through one of `within`); nil otherwise.
    private func keyOwner(of entity: EntityDescription, named name: String, within: Set<String>) -> KeyOwner? {
        guard let relationship = layout.model.allRelationships(of: entity).first(where: { $0.name == name }),
              !relationship.isToMany, !relationship.isTransient, !within.contains(relationship.destinationEntity),
              let column = layout.column(for: name, of: entity.name), let owner = layout.entity(named: relationship.destinationEntity),
              let naming = naming(of: owner.name, within: within), !naming.keyAttributes.isEmpty else { return nil }
        return KeyOwner(relationship: name, column: column, owner: owner)
    }

    /// One value as a word of a key: `n` (NULL), `i42`, `r` and 17 significant digits, `t` or
    /// `b` and the hexadecimal bytes (text compared byte for byte, NUL included): SQL of
    /// `seedgen_key_part`, which every connection has (`Database.registerKeyPart`).
    static func keyPart(_ expression: String) -> String {
        "seedgen_key_part(\(expression))"
    }

    /// `SELECT Z_PK, key` of every object of the concrete `entity`, named as the type's summary
    /// says (with `condition`, only the rows it holds for; with `identifiers`, an object without
    /// a key that has an identifier there is named by it); nil for an abstract entity. Only
    /// objects named by their values are numbered
    /// (` #2`, ` #3`, … where names repeat): a key is unique among the objects that give all
    /// its values (a uniqueness constraint's index, or a build that merged by `--key`), and
    /// numbering sorts every row (it took three quarters of the seed record's time); an
    /// identifier names one object of its build. Each of `carrying` (an expression over the row
    /// `t` and its name) comes between `Z_PK` and `key`: what the caller needs of the row is
    /// read in the same pass (numbering leaves the rows in name order, and reading the row again
    /// by its `Z_PK` was a seek per object). With `contentColumns` (a digest rule's `named`:
    /// the columns that took over those a record's names were made of), objects named by their
    /// values are named by a digest of those columns' values instead of their own content.
    package func namedRows(of entity: EntityLayout, onlyWhere condition: String? = nil, identifiedIn identifiers: Identifiers? = nil,
                           carrying: [(expression: String, name: String)] = [], contentColumns: [String]? = nil) -> String? {
        guard let naming = naming(of: entity.name) else { return nil }
        func parts(_ attributes: [(attribute: AttributeDescription, column: String)]) -> [String] {
            attributes.map { Self.keyPart(Database.quote($0.column)) }
        }
        let carried = carrying.map { ", \($0.expression) AS \($0.name)" }.joined()
        let content = (contentByDigest || contentColumns != nil
                       ? Self.contentDigestKey(contentColumns ?? naming.contentAttributes.map(\.column), alias: nil)
                       : Self.words(["'c'"] + parts(naming.contentAttributes)))
            + ownerWord(of: entity.name, alias: "t")
        let rows = "FROM \(schema).\(Database.quote(entity.table)) t WHERE Z_ENT = \(entity.number)" + (condition.map { " AND (\($0))" } ?? "")
        var keyed = "", unkeyed = ""
        if let key = keySQL(of: entity.name, alias: "t") {
            keyed = "SELECT Z_PK\(carried), \(key.key) AS key \(rows) AND \(key.given) UNION ALL "
            unkeyed = " AND NOT (\(key.given))"
        }
        var identified = "", unidentified = ""
        if let identifiers {
            let identifier = "(SELECT r.KEY FROM \(identifiers.table) r WHERE r.ENTITY = \(identifiers.entity) AND r.PK = Z_PK AND \(Self.namesByIdentifier("r.KEY")))"
            let names = carrying.map { ", \($0.name)" }.joined()
            identified = "SELECT Z_PK\(names), key FROM (SELECT Z_PK\(carried), \(identifier) AS key \(rows)\(unkeyed)) WHERE key IS NOT NULL UNION ALL "
            unidentified = " AND \(identifier) IS NULL"
        }
        return "\(keyed)\(identified)\(Self.numbered("SELECT Z_PK\(carried), \(content) AS base \(rows)\(unkeyed)\(unidentified)", carrying: carrying.map(\.name)))"
    }

    /// `SELECT Z_PK, key` (and each of `carrying`) of the rows `SELECT Z_PK, base …` gives,
    /// each key its `base` numbered among equal ones in `Z_PK` order (` #2`, ` #3`, …): how
    /// objects named by their values are told apart.
    static func numbered(_ rows: String, carrying: [String] = []) -> String {
        let carried = carrying.map { ", \($0)" }.joined()
        return """
            SELECT Z_PK\(carried), base || CASE WHEN n > 1 THEN ' #' || n ELSE '' END AS key FROM (
              SELECT Z_PK\(carried), base, ROW_NUMBER() OVER (PARTITION BY base ORDER BY Z_PK) AS n FROM (\(rows)))
            """
    }

    /// SQL that the key `key` names an object by its values (`c …`).
    package static func namesByValues(_ key: String) -> String {
        "substr(\(key), 1, 2) = 'c '"
    }

    /// SQL that the key `key` names an object by its source identifier (`i …`).
    static func namesByIdentifier(_ key: String) -> String {
        "substr(\(key), 1, 2) = 'i '"
    }

    /// The key a seed record gives an object of the concrete `entity` of `layout` named by its
    /// values (`contentByDigest`), from its row `alias`, with the ordinal (` #2`, …) of the key
    /// `previous` (an object keeps its place among equal objects); nil for an abstract entity.
    static func contentKeySQL(of entity: EntityLayout, in layout: StoreLayout, alias: String, ordinalOf previous: String) -> String? {
        // What names an object by its values does not depend on the build's keys.
        ObjectNames(layout: layout, buildKeys: [:]).naming(of: entity.name).map { naming in
            "\(contentDigestKey(naming.contentAttributes.map(\.column), alias: alias)) || substr(\(previous), \(contentDigestKeyLength + 1))"
        }
    }

    /// `c `, then 32 hexadecimal digits: the length of a key `contentDigestKey` makes, before
    /// any ordinal.
    private static let contentDigestKeyLength = 34

    /// The key a seed record gives an object named by the values of `columns` (in their
    /// order) of its row `alias`, before any ordinal: `c ` and their digest in hexadecimal.
    static func contentDigestKey(_ columns: [String], alias: String?) -> String {
        "'c ' || hex(\(Database.rowDigestSQL(columns.map { (alias.map { "\($0)." } ?? "") + Database.quote($0) })))"
    }

    /// `parts` joined by blanks, as a balanced tree of `||` (a chain of a thousand would pass
    /// SQLite's limit on an expression's depth).
    static func words(_ parts: [String]) -> String {
        guard parts.count > 2 else { return parts.joined(separator: " || ' ' || ") }
        let middle = parts.count / 2
        return "(\(words(Array(parts[..<middle])))) || ' ' || (\(words(Array(parts[middle...]))))"
    }

    /// The object a key names, its values decoded (for reports).
    package func object(entity: String, key: String) -> NamedObject {
        let naming = naming(of: entity)
        var words = key.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var ordinal = 1
        if let last = words.last, last.hasPrefix("#"), let number = Int(last.dropFirst()) {
            ordinal = number
            words.removeLast()
        }
        var owner: String?
        let ownerEntity = words.first == "k" ? naming?.keyOwner?.owner : self.owner(of: entity)?.owner
        if let last = words.last, last.hasPrefix("@"), let ownerEntity {
            words.removeLast()
            if last != "@-" {
                let ownerKey = String(decoding: Self.bytes(ofHex: last.dropFirst()), as: UTF8.self)
                owner = "\(ownerEntity.name)[\(self.object(entity: ownerEntity.name, key: ownerKey).keyText)]"
            }
        }
        if words.first == "i" {
            let identifier = words.dropFirst().first.map(Self.value(ofPart:))?.text ?? ""
            return NamedObject(entity: entity, isKeyed: false, values: [], ordinal: 1, identifier: identifier)
        }
        let isKeyed = words.first == "k"
        if !isKeyed && contentByDigest {
            return NamedObject(entity: entity, isKeyed: false, values: [], ordinal: ordinal, contentDigest: words.dropFirst().first, owner: owner)
        }
        let attributes = ((isKeyed ? naming?.keyAttributes : naming?.contentAttributes) ?? []).map(\.attribute)
        let values = words.dropFirst().map(Self.value(ofPart:))
        return NamedObject(entity: entity, isKeyed: isKeyed,
                          values: zip(attributes, values).map { NamedObject.Value(attribute: $0, value: $1) }, ordinal: ordinal, owner: owner)
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
