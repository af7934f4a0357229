import Foundation
import SeedModel
import SeedModelLoader
import SeedStore
import Testing

/// Models written as `contents` text and stores built from them, for the tests of the store
/// and of the engines that change it.
public enum StoreFixture {
    /// A model read from the entities of a `contents` text.
    public static func model(_ body: String, in directory: TemporaryDirectory) throws -> DataModel {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            \(body)
            </model>
            """
        return try ModelLoader.load(from: try directory.write(text, to: "model-\(UUID().uuidString)/contents"))
    }

    /// Builds a store for `model` at `path`, its rows written by `fill` on the builder's
    /// connection, and returns the build summary.
    @discardableResult
    package static func build(_ model: DataModel, era: FrameworkEra = .newest, at path: String,
                              fill: ((Database) throws -> Void)? = nil) throws -> StoreBuilder.Summary {
        let builder = try StoreBuilder(layout: try StoreLayout(model: model, era: era), outputPath: path)
        if let fill { try fill(builder.database) }
        return try builder.finish()
    }
}

/// Authors and books, a many-to-many between them: the smallest model with a join table.
public enum LibraryModel {
    /// The entities of its `contents`.
    public static let entities = """
        <entity name="Author">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <attribute name="title" attributeType="String"/>
            <relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        </entity>
        """

    /// Inserts an author, a book and the link between them for each primary key, in the given order.
    package static func fill(_ database: Database, order: [Int]) throws {
        for pk in order {
            try database.execute("INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(pk), 1, 1, 'Author \(pk)')")
            try database.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (\(pk), 2, 1, 'Book \(pk)')")
            try database.execute("INSERT INTO Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) VALUES (\(pk), \(pk))")
        }
    }
}

/// Skips a test when the corpus is not on this machine, with a visible reason.
public let corpusTrait = ConditionTrait.enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.skipMessage))
