import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedEvolution
import SeedStore

/// A relationship kept by name is carried whatever its inverse becomes: CoreDataPlus'
/// BookMigration sample (alemar11/CoreDataPlus, `Book.user` to-one made `Book.users` to-many,
/// `User.books` kept) turns a one-to-many into a many-to-many whose links come from the kept side,
/// as Core Data's inferred mapping carries `User.books` by name; and back.
@Suite("Relationships whose inverse changes shape")
struct InverseReshapeTests {
    static func books(_ bookSide: String, ordered: Bool = false) -> String {
        """
        <entity name="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            \(bookSide)
        </entity>
        <entity name="User">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES"\(ordered ? " ordered=\"YES\"" : "") deleteRule="Nullify" destinationEntity="Book" inverseName="\(bookSide.contains("\"users\"") ? "users" : "user")" inverseEntity="Book"/>
        </entity>
        """
    }

    static let toOne = #"<relationship name="user" optional="YES" maxCount="1" deleteRule="Nullify" destinationEntity="User" inverseName="books" inverseEntity="User"/>"#
    static let toMany = #"<relationship name="users" optional="YES" toMany="YES" deleteRule="Nullify" destinationEntity="User" inverseName="books" inverseEntity="User"/>"#

    /// Links of `User.books` as (user name, book title), in `layout`'s store at `path`.
    static func links(_ path: String, _ layout: StoreLayout) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly)
        if let (join, isFirst) = layout.joinTableSide(for: "books", of: "User") {
            let (user, book) = isFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
            return try database.rows("SELECT u.ZNAME || '>' || b.ZTITLE FROM \(join.name) j JOIN ZUSER u ON u.Z_PK = j.\(user) JOIN ZBOOK b ON b.Z_PK = j.\(book) ORDER BY 1").map { $0[0].text ?? "" }
        }
        return try database.rows("SELECT u.ZNAME || '>' || b.ZTITLE FROM ZBOOK b JOIN ZUSER u ON u.Z_PK = b.ZUSER ORDER BY 1").map { $0[0].text ?? "" }
    }

    /// Each user's books in the order of its ordered `books`, read through where the store keeps them.
    static func order(_ path: String, _ layout: StoreLayout) throws -> [String] {
        let links = try #require(SourceLinks(of: "books", of: "User", in: layout))
        let position = try #require(links.orders[false])
        return try Database(path: path, mode: .readOnly).rows("""
            SELECT u.ZNAME || '>' || group_concat(b.ZTITLE, ',') FROM (SELECT * FROM \(links.table) l ORDER BY l.\(position)) l
            JOIN ZUSER u ON u.Z_PK = l.\(links.holder) JOIN ZBOOK b ON b.Z_PK = l.\(links.linked) GROUP BY u.ZNAME ORDER BY u.ZNAME
            """).map { $0[0].text ?? "" }
    }

    /// A store of `from` with two users of two books each (and an unlinked book), migrated to `to`.
    func migrate(from: String, to: String, ordered: Bool = false, link: (Int, Int) -> Bool = { user, book in book / 2 == user }) throws
        -> (before: [String], after: [String], dryRun: StoreAssessment, order: (before: [String], after: [String])) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let v1 = try StoreFixture.model(Self.books(from, ordered: ordered), in: directory), v2 = try StoreFixture.model(Self.books(to, ordered: ordered), in: directory)
        let path = directory.path("books.sqlite")
        try StoreFixture.build(v1, at: path)
        let layout = try StoreLayout(model: v1)
        try StoreConnection(path: path, layout: layout).write { writer in
            let users = try (0..<2).map { try writer.insert("User", ["name": .text("U\($0)")]) }
            // Inserted last first: an ordered list's order is not its members' Z_PK order.
            for book in (0..<5).reversed() {
                let object = try writer.insert("Book", ["title": .text("B\(book)")])
                for (index, user) in users.enumerated() where link(index, book) { try writer.add(user, "books", object) }
            }
        }
        let before = try Self.links(path, layout)
        let orderBefore = ordered ? try Self.order(path, layout) : []
        let migrator = StoreMigrator(storeAt: path, versions: ModelVersions(versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)], current: .init(name: "v2", model: v2)))
        let plan = try migrator.plan().assessment
        _ = try migrator.migrate()
        let destination = try StoreLayout(model: v2)
        #expect(try StoreVerifier(storePath: path, layout: destination).verify().filter { !$0.isNote }.isEmpty)
        return (before, try Self.links(path, destination), plan, (orderBefore, ordered ? try Self.order(path, destination) : []))
    }

    @Test("a to-one made a to-many under a new name, its inverse kept: the many-to-many holds every link the kept to-many held (it held none before the fix)")
    func toOneMadeManyToMany() throws {
        let (before, after, plan, _) = try migrate(from: Self.toOne, to: Self.toMany)
        #expect(before == ["U0>B0", "U0>B1", "U1>B2", "U1>B3"])
        #expect(after == before)
        #expect(plan.isPossible)
    }

    @Test("the same with the kept to-many ordered: the links and their order are carried")
    func orderedToOneMadeManyToMany() throws {
        let (before, after, _, order) = try migrate(from: Self.toOne, to: Self.toMany, ordered: true)
        #expect(after == before && after.count == 4)
        #expect(order.before == ["U0>B1,B0", "U1>B3,B2"] && order.after == order.before, "\(order)")
    }

    @Test("a many-to-many whose to-many becomes a to-one under a new name: each book's one user is carried; a book of two users is refused before anything is written")
    func manyToManyMadeToOne() throws {
        let (before, after, _, _) = try migrate(from: Self.toMany, to: Self.toOne)
        #expect(after == before && after.count == 4)
        #expect(throws: MigrationError.self) {
            _ = try migrate(from: Self.toMany, to: Self.toOne, link: { _, book in book < 2 })
        }
    }
}
