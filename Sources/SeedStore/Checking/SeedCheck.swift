import Foundation
import SeedModel

/// Checks a seed store, or the copy an installer made of it, before it may become a user's
/// store. Reads only (a seed may lie in a read-only place).
public enum SeedCheck {
    /// How much of the contents to check.
    public enum Depth: Sendable {
        /// The seal when the seed has one (one read of the bytes), otherwise `quick_check`
        /// and the recorded content digest.
        case standard
        /// `quick_check` and the content digest always, the seal too when there is one.
        case thorough
    }

    /// Why a file is not a usable seed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What is wrong with it.
        public var reason: String
        /// True when the file cannot be read at all (missing, not a file, not readable), false
        /// when it was read and is refused for what it holds.
        package var isAccessFailure = false

        /// A failure of the file at `path`.
        package init(path: String, reason: String, isAccessFailure: Bool = false) {
            self.path = path
            self.reason = reason
            self.isAccessFailure = isAccessFailure
        }

        /// `/app/Seed.sqlite: truncated: ...`.
        public var description: String { "\(path): \(reason)" }
    }

    /// What the cheap checks read: enough to compare a seed with an installed store.
    package struct Identity: Sendable, Equatable {
        /// `Z_METADATA.Z_UUID`.
        package var uuid: String
        /// The store's metadata.
        package var metadata: StoreMetadata
    }

    /// The checks that cost no more than a few reads: the file is there, has SQLite's
    /// header, is as long as its header says, has no journal beside it, and was made for `model`.
    package static func identify(_ path: String, model: DataModel) throws(Failure) -> Identity {
        try identify(path, identity: ModelIdentity(model: model))
    }

    /// Checks what can be told of the file at `path` without SQLite: that it is a readable
    /// file (else a failure that `isAccessFailure`), with SQLite's header and a valid page
    /// size, as long as its header says. `whole` (a seed) also wants no `-wal` or `-journal`
    /// beside it; a user's store may have one, and is then not measured against its header.
    package static func checkFile(_ path: String, whole: Bool) throws(Failure) {
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        let kind = FileSystem.kind(of: path)
        if kind == .missing { throw Failure(path: path, reason: "no such file", isAccessFailure: true) }
        if let what = kind.notAFile { throw Failure(path: path, reason: "\(what), not a store file", isAccessFailure: true) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw Failure(path: path, reason: "not readable", isAccessFailure: true) }
        let header = StoreFile.header(of: path)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard !header.isEmpty else { throw fail("an empty file, not an SQLite database") }
        guard StoreFile.magic.starts(with: header.prefix(StoreFile.magic.count)) else { throw fail("not an SQLite database (no 'SQLite format 3' header)") }
        guard header.count == 100 else { throw fail("truncated: \(size) bytes, less than an SQLite header") }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { throw fail("damaged header: page size \(rawPageSize)") }
        let sidecar = StoreFile.sidecars(of: path).first
        if let sidecar, whole { throw fail("\(sidecar) lies beside it: the seed is not complete in one file") }
        guard sidecar == nil else { return }
        let pages = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let headerCountIsValid = header[24..<28].elementsEqual(header[92..<96]) && pages > 0
        if headerCountIsValid && size < pages * pageSize {
            throw fail("truncated: the header says \(pages) pages of \(pageSize) bytes (\(pages * pageSize) bytes), the file has \(size)")
        }
        if size % pageSize != 0 { throw fail("truncated: \(size) bytes is not a whole number of \(pageSize)-byte pages") }
    }

    /// `identify(_:model:)` for a model named by its version hashes.
    package static func identify(_ path: String, identity model: ModelIdentity) throws(Failure) -> Identity {
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        try checkFile(path, whole: true)
        let identity: Identity
        do {
            let database = try Database(path: path, mode: .readOnly, immutable: true)
            guard let row = try database.metadataRow(), let uuid = row.uuid, let bytes = row.plist else {
                throw fail("no Core Data metadata (Z_METADATA is empty)")
            }
            identity = Identity(uuid: uuid, metadata: try StoreMetadata(decoding: bytes))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw fail("damaged: cannot read its metadata (\(error))")
        }
        let differences = identity.metadata.differences(from: model)
        if !differences.isEmpty {
            throw fail("made for another model: \(differences.joined(separator: "; "))")
        }
        return identity
    }

    /// Checks the contents: the seal, or `quick_check` with the content digest (on two threads).
    package static func checkContents(_ path: String, identity: Identity, depth: Depth = .standard) throws(Failure) {
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        do {
            let database = try Database(path: path, mode: .readOnly, immutable: true)
            let scheme = identity.metadata.seal.flatMap { StoreSeal.schemes.contains($0) ? $0 : nil }
            let sealed = scheme != nil
            if let scheme, case .broken(let expected, let found) = try StoreSeal.check(path: path, uuid: identity.uuid, scheme: scheme, database: database) {
                throw fail("damaged: its bytes do not match the seal seedgen wrote (Z_UUID \(expected), the bytes give \(found))")
            }
            guard !sealed || depth == .thorough else { return }
            let digest = identity.metadata.contentDigest == nil ? nil : try ContentDigest.Job(path: path, database: database)
            digest?.start()
            let problems: [String]
            do {
                problems = try database.rows("PRAGMA quick_check(5)").compactMap { $0.first?.text }
            } catch {
                digest?.abandon()
                throw error
            }
            let summary = try digest?.finish()
            if problems != ["ok"] {
                throw fail("damaged: PRAGMA quick_check: \(problems.joined(separator: "; "))")
            }
            if let recorded = identity.metadata.contentDigest, let summary, summary.digest != recorded {
                throw fail("damaged: its rows digest to \(summary.digest), not to the recorded \(recorded)")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw fail("damaged: \(error)")
        }
    }
}
