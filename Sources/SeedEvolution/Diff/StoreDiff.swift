import SeedModel
import SeedStore

/// The objects two stores of one model hold differently: added, removed and changed, matched
/// by the values that name them (`ObjectNames`), never by `Z_PK`: two builds that number the
/// same objects differently hold the same objects.
///
/// Each store is read on its own read-only connection. Names go into a temporary table of
/// that connection; then each entity's objects are read from both stores in key order and
/// merged, so time is one sort and one pass per store and memory stays flat in the number of
/// objects (many-to-many links that differ are held until their owner's entity is reached).
package struct StoreDiff {
    /// Why two stores cannot be compared.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Objects per entity: how many the new store adds, removes, changes and keeps as they were.
    package struct Counts: Sendable, Equatable, Encodable {
        package var added = 0, removed = 0, changed = 0, same = 0

        /// No objects.
        package init() {}

        /// The counts of every entity together.
        package static func total(_ counts: some Sequence<Counts>) -> Counts {
            counts.reduce(into: Counts()) {
                $0.added += $1.added; $0.removed += $1.removed; $0.changed += $1.changed; $0.same += $1.same
            }
        }
    }

    /// The old store.
    package let oldPath: String
    /// The new store.
    package let newPath: String
    /// The model both stores are of (its current layout).
    package let layout: StoreLayout

    /// A diff of the stores at `oldPath` and `newPath`, both of `layout`'s model.
    package init(old oldPath: String, new newPath: String, layout: StoreLayout) {
        self.oldPath = oldPath
        self.newPath = newPath
        self.layout = layout
    }

    /// One store opened for the diff.
    struct Side {
        let path: String
        let reader: StoreReader
        let layout: StoreLayout
        let metadata: StoreMetadata
        var database: Database { reader.file.database }
    }

    /// Compares the stores and calls `report` with each object that differs, entity by entity
    /// (in name order), in key order; returns the counts per concrete entity.
    package func run(_ report: (ObjectDifference) throws -> Void) throws -> [String: Counts] {
        let old = try open(oldPath)
        let new = try open(newPath)
        // Keys recorded by the newer build win; one the old build alone used still names its objects.
        let buildKeys = old.metadata.buildKeys.merging(new.metadata.buildKeys) { _, newer in newer }
        let names = ObjectNames(layout: layout, buildKeys: buildKeys)
        for side in [old, new] {
            do {
                try names.create(in: side.database)
            } catch {
                throw Failure(description: "\(side.path): cannot name its objects: \(error)")
            }
        }
        var links = try linkChanges(old, new, names)
        var counts: [String: Counts] = [:]
        for entity in layout.model.entities.map(\.name).sorted() where names.naming(of: entity) != nil {
            counts[entity] = try compare(entity, old, new, names, links: &links, report)
        }
        return counts
    }

    /// Opens a store read-only and checks it is of the model, with values Core Data reads back.
    private func open(_ path: String) throws -> Side {
        do {
            let reader = try StoreReader(path: path)
            guard let (_, metadata) = try reader.file.database.storeMetadata() else {
                throw Failure(description: "\(path): no metadata row in Z_METADATA")
            }
            let differences = metadata.differences(from: layout.model)
            guard differences.isEmpty else {
                throw Failure(description: "\(path): the store is of another version of the model (\(differences.joined(separator: "; "))); bring it to the current version first (seedgen migrate)")
            }
            let stored = try reader.storedLayout(of: layout)
            try reader.requireReadableValues(of: stored)
            // Each row names its entity, or (after a migration renamed it) the name it had; Core
            // Data's persistent history numbers its own.
            for row in try reader.file.primaryKeyRows() where PersistentHistoryLayout.primaryKeyRows[row.number] != row.name {
                guard let entity = stored.entity(number: row.number), entity.name == row.name || entity.renamingIdentifier == row.name else {
                    throw Failure(description: "\(path): Z_PRIMARYKEY numbers \(row.name) \(row.number), not \(stored.entity(named: row.name)?.number ?? 0) as the model does")
                }
            }
            return Side(path: path, reader: reader, layout: stored, metadata: metadata)
        } catch let failure as Failure {
            throw failure
        } catch {
            let text = "\(error)"
            throw Failure(description: text.hasPrefix(path + ":") ? text : "\(path): \(text)")
        }
    }
}
