import Dispatch
import Foundation
import SeedModel
import SeedStore

/// The seed-003 stack: a store opened for an app, with one read context for any thread and
/// one serial write queue. Each block on the queue is one transaction, saved when it returns.
///
/// Reads and writes use separate connections, so a read never sees half a write block.
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

/// Fetches and counts on a container's read connection, one caller at a time.
public final class ReadContext: Sendable {
    private let connection: Guarded<StoreConnection>

    init(_ connection: StoreConnection) {
        self.connection = Guarded(connection)
    }

    func withConnection<Result>(_ body: (StoreConnection) throws -> Result) rethrows -> Result {
        try connection.withValue(body)
    }

    /// The objects `request` matches.
    public func fetch(_ request: FetchRequest) throws -> [FetchedObject] {
        try withConnection { try $0.fetch(request) }
    }

    /// The objects of `entity` (and its sub-entities) matching a predicate in NSPredicate's
    /// format, sorted, with an optional limit and offset.
    public func fetch(_ entity: String, where predicate: String? = nil, variables: [String: SQLValue] = [:],
                      sortedBy sortKeys: [FetchRequest.SortKey] = [], limit: Int? = nil, offset: Int? = nil) throws -> [FetchedObject] {
        try fetch(try Self.request(entity, predicate, variables, sortKeys, limit, offset))
    }

    /// How many objects `request` matches.
    public func count(_ request: FetchRequest) throws -> Int {
        try withConnection { try $0.count(request) }
    }

    /// How many objects of `entity` match a predicate.
    public func count(_ entity: String, where predicate: String? = nil, variables: [String: SQLValue] = [:]) throws -> Int {
        try count(try Self.request(entity, predicate, variables, [], nil, nil))
    }

    private static func request(_ entity: String, _ predicate: String?, _ variables: [String: SQLValue],
                                _ sortKeys: [FetchRequest.SortKey], _ limit: Int?, _ offset: Int?) throws -> FetchRequest {
        FetchRequest(entity: entity, predicate: try predicate.map { try FetchPredicate(parsing: $0) }, variables: variables,
                     sortKeys: sortKeys, limit: limit, offset: offset)
    }
}

/// A value used under a lock: how a connection (not thread-safe) is shared as `Sendable`.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withValue<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(value)
    }
}
