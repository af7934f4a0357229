import Foundation

/// A model of every naming kind and relationship kind, and its first seed, for the tests of
/// `seedgen diff`, updates and the seed record through migrations.
public enum ShelfModel {
    /// Author keyed by the model, Book by `--key Book=isbn`, Shelf by nothing; Book.shelf a
    /// to-one whose inverse is ordered, Book.authors a many-to-many.
    public static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Author">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Book">
            <attribute name="isbn" attributeType="String"/>
            <attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="authors" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
        </entity>
        <entity name="Shelf">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
        </entity>
        </model>
        """

    public static let v1 = """
        {"Authors": [{"name": "Ann"}, {"name": "Bob"}],
         "Shelves": [{"label": "top", "books": ["1", "2", "3"]}, {"label": "low"}],
         "Books": [{"isbn": "1", "title": "Caf\\u00e9", "price": 0.0, "authors": ["Ann"]},
                   {"isbn": "2", "title": "a\\u0000b", "price": 2.5, "authors": ["Ann", "Bob"]},
                   {"isbn": "3", "title": "Three", "price": 3}]}
        """

    /// Builds `source` (JSON) with the model (or `model`, a model or bundle's path) into
    /// `name`.sqlite in `directory`.
    public static func build(_ source: String, as name: String, in directory: TemporaryDirectory, keys: [String] = ["Book=isbn"], model: String? = nil) throws -> String {
        let store = directory.path("\(name).sqlite")
        let input = try directory.write(source, to: "\(name).json")
        let result = try SeedgenTool.run(["build", "--model", model ?? directory.path("Shelf.xcdatamodel"), "--output", store, "--quiet", input]
                                         + keys.flatMap { ["--key", $0] })
        guard result.status == 0 else { throw FixtureError(result.error) }
        return store
    }

    /// Seed 2 against `v1`: book 1 repriced, book 2 retitled, book 3 and Bob removed, book 4
    /// added (by Ann, first on the top shelf).
    public static let v2 = """
        {"Authors": [{"name": "Ann"}],
         "Shelves": [{"label": "top", "books": ["4", "1", "2"]}, {"label": "low"}],
         "Books": [{"isbn": "1", "title": "Caf\\u00e9", "price": 9.0, "authors": ["Ann"]},
                   {"isbn": "2", "title": "Two", "price": 2.5, "authors": ["Ann"]},
                   {"isbn": "4", "title": "Four", "price": 4, "authors": ["Ann"]}]}
        """

    /// Installs `seed` into `directory` as `name`, then changes it as its user would (SQL on
    /// the copy): book 2's title changed, an author Zed of their own who wrote book 3.
    public static func installWithUserEdits(_ seed: String, as name: String = "installed.sqlite", in directory: TemporaryDirectory) throws -> String {
        let store = try directory.install(seed, as: name)
        try SQLiteShell.execute("""
            UPDATE ZBOOK SET ZTITLE = 'mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '2';
            INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'), 1, 1, 'Zed');
            UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Author';
            INSERT INTO Z_1BOOKS VALUES ((SELECT Z_PK FROM ZAUTHOR WHERE ZNAME = 'Zed'), (SELECT Z_PK FROM ZBOOK WHERE ZISBN = '3'));
            """, on: store)
        return store
    }

    /// A bundle (written as `Club.xcdatamodeld` by `ClubModels.writeBundle`) of the model and its
    /// version 2, where Book's price is removed and pages added with a default; and seed 2
    /// (`v2` without its prices) built from it as `v2.sqlite`, keyed by isbn.
    public static func bundleWithoutPrices(in directory: TemporaryDirectory) throws -> (bundle: String, seed2: String) {
        let v2Model = model.replacingOccurrences(
            of: #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#,
            with: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/>"#)
        guard v2Model != model else { throw FixtureError("ShelfModel.model changed: update bundleWithoutPrices") }
        let bundle = try ClubModels.writeBundle([("Shelf", model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        let source = try directory.write(v2.replacingOccurrences(of: #", "price": [0-9.]+"#, with: "", options: .regularExpression), to: "v2.json")
        let seed2 = directory.path("v2.sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed2, "--quiet", "--key", "Book=isbn", source])
        guard build.status == 0 else { throw FixtureError(build.error) }
        return (bundle, seed2)
    }

    /// A directory holding the model as `Shelf.xcdatamodel`.
    public static func setUp() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("Shelf.xcdatamodel"), withIntermediateDirectories: true)
        _ = try directory.write(model, to: "Shelf.xcdatamodel/contents")
        return directory
    }

    /// The full seed record's rows, with their digests in hexadecimal.
    public static let recordRows = "SELECT ENTITY, PK, KEY, hex(DIGEST) FROM SEEDGEN_SEEDED ORDER BY ENTITY, PK"

    /// Version 2: Book.price renamed cost (by renaming identifier), Book given pages (default 100).
    public static let v2Model = model.replacingOccurrences(
        of: #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#,
        with: #"<attribute name="cost" optional="YES" attributeType="Double" usesScalarValueType="YES" elementID="price"/>"#
            + #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/>"#)
    /// Version 3: Book.title renamed heading, Book given shelved (default YES).
    public static let v3Model = v2Model.replacingOccurrences(
        of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
        with: #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#
            + #"<attribute name="shelved" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>"#)
    /// Version 4: Book.pages removed (its values go: the record is digested again).
    public static let v4Model = v3Model.replacingOccurrences(
        of: #"<attribute name="pages" optional="YES" attributeType="Integer 16" defaultValueString="100" usesScalarValueType="YES"/>"#, with: "")

    /// Seed 1 installed with its full record, book 2 retitled by its user; the bundle of
    /// versions 1 and 2 (in `directory`, made by `setUp`).
    public static func installedStore(in directory: TemporaryDirectory) throws -> (store: String, bundle: String) {
        guard v2Model != model && v3Model != v2Model && v4Model != v3Model else { throw FixtureError("ShelfModel.model changed: update its versions") }
        let seed1 = try build(v1, as: "v1", in: directory)
        let store = try directory.install(seed1, as: "installed.sqlite", packed: false)
        try SQLiteShell.execute("UPDATE ZBOOK SET ZTITLE = 'mine', Z_OPT = Z_OPT + 1 WHERE ZISBN = '2'", on: store)
        let bundle = try ClubModels.writeBundle([("Shelf", model), ("Shelf 2", v2Model)], current: "Shelf 2", in: directory)
        return (store, bundle)
    }

    /// A seed of `bundle`'s current version: version 1's objects, book 3 at price 13, the
    /// attributes `price` and `title` under the names that version gives them.
    public static func seed(_ name: String, bundle: String, price: String = "price", title: String = "title", in directory: TemporaryDirectory,
                            options: [String] = ["--key", "Book=isbn"]) throws -> String {
        let source = try directory.write(v1.replacingOccurrences(of: #""price": 3}"#, with: #""price": 13}"#)
            .replacingOccurrences(of: #""price""#, with: "\"\(price)\"").replacingOccurrences(of: #""title""#, with: "\"\(title)\""), to: "\(name).json")
        let seed = directory.path("\(name).sqlite")
        let build = try SeedgenTool.run(["build", "--model", bundle, "--output", seed, "--quiet", source] + options)
        guard build.status == 0 else { throw FixtureError(build.error) }
        return seed
    }
}
