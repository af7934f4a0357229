extension StoreFile {
    /// A join-table column a forward migration kept under an earlier version's name.
    package struct KeptColumn: Sendable {
        package var table: String
        /// The name a fresh store of the model has.
        package var expected: String
        /// The name this store has.
        package var kept: String
    }

    /// The layout of `layout.model` as this store holds it: the rules of the framework that
    /// wrote it (`frameworkVersion`, when the era can express the model), and join-table columns
    /// that differ from a fresh store's only in the entity number of their stem (`Z_17USERS1`
    /// for `Z_18USERS1`), as Core Data keeps them through a migration.
    package func storedLayout(of layout: StoreLayout, frameworkVersion: Int?) throws(SQLiteError) -> (layout: StoreLayout, kept: [KeptColumn]) {
        var result = layout
        if let frameworkVersion, frameworkVersion != layout.era.version,
           let era = try? StoreLayout(model: layout.model, era: FrameworkEra(version: frameworkVersion)) {
            result = era
        }
        var kept: [KeptColumn] = []
        for join in result.joinTables where try tableExists(join.name) {
            let expected = [join.firstColumn, join.secondColumn] + join.orderColumns
            let found = try columns(of: join.name).map(\.name)
            guard found != expected, found.count == expected.count, zip(expected, found).allSatisfy({ Self.sameStem($0, $1) }) else { continue }
            var stored = join
            stored.firstColumn = found[0]
            stored.secondColumn = found[1]
            stored.orderColumns = Array(found.dropFirst(2))
            result = result.replacingJoinTable(named: join.name, with: stored)
            for (name, keptName) in zip(expected, found) where name != keptName {
                kept.append(KeptColumn(table: join.name, expected: name, kept: keptName))
            }
        }
        return (result, kept)
    }

    /// True when two column names differ at most in the count after their stem.
    static func sameStem(_ lhs: String, _ rhs: String) -> Bool {
        func stem(_ name: String) -> Substring {
            name.dropLast(name.reversed().prefix { $0.isASCII && $0.isNumber }.count)
        }
        return stem(lhs) == stem(rhs)
    }

    /// `NSPersistenceFrameworkVersion` of the store's metadata, when it can be read.
    package func frameworkVersion() -> Int? {
        guard let plist = try? database.metadataRow()?.plist else { return nil }
        return (try? StoreMetadata(decoding: plist))?.frameworkVersion
    }
}
