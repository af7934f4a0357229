import Dispatch
import Foundation
import SeedModel
import SeedStore

/// The seed-003 stack: a store opened for an app, with one read context for any thread and
/// one serial write queue. Each block on the queue is one transaction, saved when it returns.
///
/// Reads and writes use separate connections, so a read never sees half a write block.
///
/// ```swift
/// let layout = try StoreLayout(modelCarriedBy: bundledSeed)   // the model every seed carries
/// let container = try StoreContainer(storePath: store, layout: layout)
/// guard try container.isInitialised() else { return }        // the model's initialisationCheck
/// let atlantis = try container.writeAndWait { writer in       // one transaction, saved on return
///     let team = try writer.insert("Team", ["name": .text("Atlantis")])
///     try writer.relate(team, "coach", to: try writer.insert("Coach", ["name": .text("Meer")]))
///     return team
/// }
/// container.enqueue { writer in try writer.delete(atlantis) }  // in order, off the caller's thread
/// container.waitForWrites()
/// ```
public final class StoreContainer: Sendable {
    /// The store file.
    public let storePath: String
    /// The model's layout.
    public let layout: StoreLayout
    /// Reads on any thread (one at a time).
    public let viewContext: ReadContext
    private let writeQueue: DispatchQueue
    private let writer: Guarded<StoreConnection>

    /// Opens the store at `storePath` (which must exist; see `SeedInstaller`) for `layout`'s
    /// model; fails when the store was made for another model version.
    public init(storePath: String, layout: StoreLayout) throws {
        self.storePath = storePath
        self.layout = layout
        viewContext = ReadContext(try StoreConnection(path: storePath, layout: layout, access: .readOnly))
        writer = Guarded(try StoreConnection(path: storePath, layout: layout, access: .readWrite))
        writeQueue = DispatchQueue(label: "seedgen.write.\(URL(fileURLWithPath: storePath).lastPathComponent)")
    }

    /// Whether the store holds its data (the model's `initialisationCheck` template finds something).
    public func isInitialised(template: String = "initialisationCheck") throws -> Bool {
        try viewContext.withConnection { try $0.isInitialised(template: template) }
    }

    /// Queues `block`; it runs after the blocks queued before it, as one transaction that is
    /// committed when it returns and rolled back when it throws. `completion` gets the error.
    public func enqueue(_ block: @escaping @Sendable (ObjectWriter) throws -> Void,
                        completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        writeQueue.async { [writer] in
            do {
                try writer.withValue { try $0.write(block) }
                completion?(nil)
            } catch {
                completion?(error)
            }
        }
    }

    /// Queues `block` and waits for its transaction; returns what it returns.
    public func write<Result: Sendable>(_ block: @escaping @Sendable (ObjectWriter) throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.async { [writer] in
                continuation.resume(with: Swift.Result { try writer.withValue { try $0.write(block) } })
            }
        }
    }

    /// Queues `block` and blocks the calling thread until its transaction is done (for
    /// command-line programs; never call it from a block on the queue).
    public func writeAndWait<Result>(_ block: (ObjectWriter) throws -> Result) throws -> Result {
        try writeQueue.sync { try writer.withValue { try $0.write(block) } }
    }

    /// Waits until every block queued so far has run.
    public func waitForWrites() {
        writeQueue.sync {}
    }
}
