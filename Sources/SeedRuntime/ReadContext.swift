import Dispatch
import Foundation
import SeedModel
import SeedStore

/// Fetches and counts on a container's read connection, one caller at a time.
///
/// A predicate is written in `NSPredicate`'s format; `$NAME` takes its value from `variables`.
/// Sort keys and predicates follow key paths through to-one relationships. A container's
/// `viewContext` is one:
///
/// ```swift
/// let context = container.viewContext
/// let groupB = try context.fetch("Team", where: "group.name == $G", variables: ["G": .text("B")],
///                                sortedBy: [.init("name")], limit: 10)
/// let squad = try context.count("Player", where: "team.name == 'Deutschland'")
/// let request = FetchRequest(entity: "Match", predicate: try FetchPredicate(parsing: "city == 'Warsaw'"),
///                            sortKeys: [.init("date", ascending: false)])
/// let latest = try context.fetch(request).first
/// ```
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
