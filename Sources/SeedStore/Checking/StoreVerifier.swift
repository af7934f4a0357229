import Foundation
import SeedModel

/// Checks a store file, ours or one Core Data wrote, against the format and (optionally) a
/// model. Reads only: the file and its directory are left exactly as they were.
public struct StoreVerifier {
    /// The store file.
    public let storePath: String
    /// The layout the store should have, when a model was given.
    public let layout: StoreLayout?
    /// Whether the store must be the seed exactly as seedgen built it (CI checking a build),
    /// rather than a store an app has used since.
    public let asBuilt: Bool

    /// A verifier for the store at `storePath`, checked against `layout` when given.
    ///
    /// A store an app has used differs from the seed it was installed from: its rows no longer
    /// digest to the seed's content digest, its bytes no longer match the seal, it may be in WAL
    /// mode with a `-wal` beside it. That is use, not damage: such findings are notes ("changed
    /// since seedgen wrote it"). With `asBuilt` they are findings: the store must be the seed
    /// exactly as built, one file.
    public init(storePath: String, layout: StoreLayout?, asBuilt: Bool = false) {
        self.storePath = storePath
        self.layout = layout
        self.asBuilt = asBuilt
    }

    /// The store cannot be checked at all (missing, not a file, not readable): a usage error,
    /// not a finding.
    public struct UsageError: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// Runs every check; an empty result means the store is clean.
    public func verify() throws(UsageError) -> [Finding] {
        let file: StoreFile
        do {
            file = try StoreFile(path: storePath)
        } catch let error as StoreFile.OpenError {
            throw UsageError(description: error.description)
        } catch let error as SQLiteError where error.isAccessFailure {
            throw UsageError(description: "\(storePath): cannot be opened: \(error)")
        } catch {
            return [Finding(check: "sqlite", location: storePath, expected: "a store SQLite can open", found: "\(error)")]
        }
        // Not a database at all: a file read and refused for what it holds, a finding (exit 1
        // by the one rule), as a damaged store's are.
        let header = file.header()
        guard header.count >= 100, header.starts(with: StoreFile.magic) else {
            return [Finding(check: "sqlite", location: storePath, expected: "an SQLite database",
                            found: header.isEmpty ? "an empty file"
                                : !StoreFile.magic.starts(with: header.prefix(StoreFile.magic.count)) ? "no 'SQLite format 3' header"
                                : "\(header.count) bytes, less than an SQLite header")]
        }
        var run = Run(file: file, layout: layout, asBuilt: asBuilt)
        do {
            try run.checkAll()
        } catch {
            run.findings.append(Finding(check: "sqlite", location: storePath, expected: "a readable store", found: "\(error)"))
        }
        return sidecars(beside: run.isSeed) + run.findings
    }

    /// What lies beside the store. A write-ahead log beside a store Core Data wrote is normal (an
    /// app has it open, or left it in WAL mode; an empty one too) and SQLite reads it: a note;
    /// so is a rollback journal that is not hot (empty, or its header zeroed: a finished write
    /// in `PERSIST` mode, or one a killed writer never synced), which SQLite ignores. Beside a
    /// seed checked as built, which ships as one file, each is a finding, as is a hot rollback
    /// journal anywhere (an interrupted write, which the next writer rolls back).
    private func sidecars(beside isSeed: Bool) -> [Finding] {
        StoreFile.sidecars(of: storePath).map { sidecar in
            let isLog = sidecar.hasSuffix("-wal")
            let isHot = !isLog && StoreFile.isHotJournal(sidecar)
            let what = isLog ? "a write-ahead log" : isHot ? "a hot rollback journal (an interrupted write)" : "a rollback journal that is not hot (empty or zeroed; SQLite ignores it)"
            return Finding(check: "sidecar", location: sidecar, expected: "a store in one file (rollback journal mode, checkpointed)",
                           found: "\(what) beside the store", isNote: !isHot && !isSeed)
        }
    }

    /// The state of one verification.
    struct Run {
        let file: StoreFile
        let layout: StoreLayout?
        /// Whether the store must be the seed as built (`StoreVerifier.asBuilt`).
        let asBuilt: Bool
        var findings: [Finding] = []
        /// True for a seed checked as built (a seed is one file: it may not refer to external
        /// files, nor have a log beside it); a store installed from a seed and used is not.
        var isSeed = false
        /// The tables whose rows are checked, when not all (`structuralFindings`): then only
        /// their structure (entities, references, inverses, positions), not their values' rules.
        var rowsChecked: Set<String>?
        /// The tables each of whose rows the caller counted as of one of their entities, none
        /// abstract (a migration's check before commit): their entity numbers are not read again.
        var entityNumbersCounted: Set<String> = []

        /// Whether the rows of `table` are checked.
        func checksRows(of table: String) -> Bool { rowsChecked?.contains(table) ?? true }

        var database: Database { file.database }

        /// Every fetch request template parses, names real properties and compiles to SQL
        /// this store accepts (variables stand in as NULL).
        mutating func checkFetchTemplates(_ layout: StoreLayout) {
            for template in layout.model.fetchRequests {
                do {
                    var request = try FetchRequest(template: template)
                    for name in request.predicate?.variableNames ?? [] { request.variables[name] = .null }
                    _ = try database.prepare(try request.compile(for: layout).sql)
                } catch let error as QueryError where error.isUnsupportedFeature {
                    // Valid for Core Data; seedgen's fetch cannot run it.
                    report("fetch-template", "template '\(template.name)' (model line \(template.line))",
                           expected: "a predicate seedgen fetch can run", found: "valid NSPredicate syntax that it cannot: \(error)", note: true)
                } catch {
                    report("fetch-template", "template '\(template.name)' (model line \(template.line))",
                           expected: "a predicate that parses and names real properties of \(template.entity)", found: "\(error)")
                }
            }
        }

        mutating func report(_ check: String, _ location: String, expected: String, found: String, note: Bool = false) {
            findings.append(Finding(check: check, location: location, expected: expected, found: found, isNote: note))
        }

        mutating func checkAll() throws {
            let integrity = try database.rows("PRAGMA integrity_check(20)").compactMap { $0.first?.text }
            if integrity != ["ok"] {
                for problem in integrity {
                    report("integrity", file.path, expected: "PRAGMA integrity_check ok", found: problem)
                }
                return
            }
            guard try checkBookkeepingTables() else { return }
            let rows = try file.primaryKeyRows()
            let metadata = try checkMetadataRow()
            isSeed = metadata?.generator != nil && asBuilt
            if let given = layout {
                let (layout, kept) = try file.storedLayout(of: given, frameworkVersion: metadata?.frameworkVersion)
                for column in kept {
                    report("column", "\(column.table).\(column.kept)", expected: "the name \(column.expected), as a fresh store has it",
                           found: "the name \(column.kept) (kept by a forward migration)", note: true)
                }
                checkPrimaryKeyRows(rows, against: layout)
                try checkSchema(layout)
                try checkRows(layout, primaryKeys: rows)
                try checkOrderedPositions(layout)
                checkFetchTemplates(layout)
                if let metadata { checkHashes(metadata, against: layout.model) }
            } else {
                try checkRowsWithoutModel(rows)
            }
            if let metadata {
                checkDigestKeys(metadata)
                if let recorded = metadata.contentDigest {
                    let computed = try ContentDigest.compute(database)
                    if computed != recorded {
                        report("content-digest", "Z_METADATA", expected: "the recorded digest \(recorded)",
                               found: "rows that digest to \(computed)\(asBuilt ? "" : " (changed since seedgen wrote it: an app's use)")", note: !asBuilt)
                    }
                }
                if metadata.seal != nil, case .broken(let expected, let found) = try StoreSeal.check(path: file.path) {
                    report("seal", "Z_METADATA.Z_UUID", expected: "the seal \(expected) over the file's bytes",
                           found: "bytes that seal to \(found) (changed since seedgen wrote the file\(asBuilt ? "" : ": an app's use")", note: !asBuilt)
                }
            }
        }

        /// `Z_PRIMARYKEY` and `Z_METADATA` exist with Core Data's columns.
        mutating func checkBookkeepingTables() throws -> Bool {
            let expected: [(String, [(String, String)])] = [
                ("Z_PRIMARYKEY", [("Z_ENT", "INTEGER"), ("Z_NAME", "VARCHAR"), ("Z_SUPER", "INTEGER"), ("Z_MAX", "INTEGER")]),
                ("Z_METADATA", [("Z_VERSION", "INTEGER"), ("Z_UUID", "VARCHAR(255)"), ("Z_PLIST", "BLOB")]),
            ]
            var usable = true
            for (table, columns) in expected {
                guard try file.tableExists(table) else {
                    report("bookkeeping", "table \(table)", expected: "present", found: "missing")
                    usable = false
                    continue
                }
                let found = try file.columns(of: table)
                if !found.elementsEqual(columns, by: { $0.name == $1.0 && $0.type == $1.1 }) {
                    report("bookkeeping", "table \(table)", expected: columns.map { "\($0.0) \($0.1)" }.joined(separator: ", "),
                           found: found.map { "\($0.name) \($0.type)" }.joined(separator: ", "))
                    usable = false
                }
            }
            return usable
        }

        /// Exactly one metadata row, version 1, a UUID, a property list that decodes.
        mutating func checkMetadataRow() throws -> StoreMetadata? {
            let rows = try database.rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
            guard rows.count == 1, let row = rows.first else {
                report("metadata", "Z_METADATA", expected: "exactly one row", found: "\(rows.count) rows")
                return nil
            }
            if row[0].integer != 1 {
                report("metadata", "Z_METADATA.Z_VERSION", expected: "1", found: row[0].description)
            }
            if row[1].text.flatMap(UUID.init(uuidString:)) == nil {
                report("metadata", "Z_METADATA.Z_UUID", expected: "a UUID", found: row[1].description)
            }
            guard let bytes = row[2].blob else {
                report("metadata", "Z_METADATA.Z_PLIST", expected: "a binary property list", found: row[2].description)
                return nil
            }
            do {
                return try StoreMetadata(decoding: bytes)
            } catch {
                report("metadata", "Z_METADATA.Z_PLIST", expected: "store metadata", found: error.reason)
                return nil
            }
        }

        /// One row per entity with its number, name (or renaming identifier) and parent.
        mutating func checkPrimaryKeyRows(_ rows: [StoreFile.PrimaryKeyRow], against layout: StoreLayout) {
            let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
            for entity in layout.entities {
                guard let row = byNumber[entity.number] else {
                    report("primary-key", "Z_PRIMARYKEY Z_ENT \(entity.number)", expected: "a row for entity \(entity.name)", found: "none")
                    continue
                }
                if row.name != entity.name && row.name != entity.renamingIdentifier {
                    report("primary-key", "Z_PRIMARYKEY Z_ENT \(entity.number)", expected: "Z_NAME \(entity.name)", found: "Z_NAME \(row.name)")
                }
                if row.superNumber != entity.superNumber {
                    report("primary-key", "Z_PRIMARYKEY Z_ENT \(entity.number) (\(entity.name))",
                           expected: "Z_SUPER \(entity.superNumber)", found: "Z_SUPER \(row.superNumber)")
                }
            }
            for row in rows where layout.entity(number: row.number) == nil && PersistentHistoryLayout.primaryKeyRows[row.number] != row.name {
                report("primary-key", "Z_PRIMARYKEY Z_ENT \(row.number)", expected: "no entity \(row.number) in the model", found: "a row for \(row.name)")
            }
        }

        /// The stored hashes equal the model's, entity by entity.
        mutating func checkHashes(_ metadata: StoreMetadata, against model: DataModel) {
            let computed = VersionHasher(model: model).entityHashes()
            for name in computed.keys.sorted(by: DataModel.namePrecedes) {
                let expected = Data(computed[name]!).base64EncodedString()
                guard let stored = metadata.versionHashes[name] else {
                    report("hash", "entity \(name)", expected: expected, found: "no hash in the store")
                    continue
                }
                if stored != computed[name]! {
                    report("hash", "entity \(name)", expected: expected, found: Data(stored).base64EncodedString())
                }
            }
            for name in metadata.versionHashes.keys.sorted(by: DataModel.namePrecedes) where computed[name] == nil {
                report("hash", "entity \(name)", expected: "no such entity in the model", found: "a hash in the store")
            }
        }

        /// The digest and checksum keys, when present, agree with the stored hashes.
        mutating func checkDigestKeys(_ metadata: StoreMetadata) {
            if let digest = metadata.hashesDigest, digest != VersionHasher.hashesDigest(metadata.versionHashes) {
                report("metadata", "NSStoreModelVersionHashesDigest", expected: VersionHasher.hashesDigest(metadata.versionHashes), found: digest)
            }
            if let checksum = metadata.checksum, checksum != VersionHasher.checksum(metadata.versionHashes) {
                report("metadata", "NSStoreModelVersionChecksumKey", expected: VersionHasher.checksum(metadata.versionHashes), found: checksum)
            }
        }
    }
}
