import Foundation
import SeedImport
import SeedStore
import SeedgenTestSupport
import Testing

/// JSON sources: the grammar (RFC 8259) and the conventions, each mistake named with its
/// file, line and column, and nothing written.
@Suite("JSON sources")
struct JSONSourceTests {
    static func error(_ text: String) throws -> InputError {
        try SourceFormatTests.error(text, file: "shelf.json")
    }

    @Test("malformed JSON is refused at the place it goes wrong", arguments: [
        ("{\"Books\": [\n  {\"isbn\": \"1\",}\n]}", 2, 16, "'}' where a member name (a string) should be"),
        ("{\"Books\": [{\"isbn\": \"1\"} {\"isbn\": \"2\"}]}", 1, 26, "'{' where ',' or ']' should be"),
        ("{\"Books\": [{\"isbn\": \"1\", \"title\": \"x\"]}", 1, 38, "']' where ',' or '}' should be"),
        ("{\"Books\": [{\"isbn\": '1'}]}", 1, 21, "''' where a value should be"),
        ("{\"Books\": [{\"isbn\": \"1\n\"}]}", 1, 23, "a line break inside a string (write it as \\n)"),
        ("{\"Books\": [{\"isbn\": \"\\x\"}]}", 1, 22, "'\\x' is not a JSON escape"),
        ("{\"Books\": [{\"isbn\": \"\\ud800 \"}]}", 1, 22, "'\\uD800' is half a surrogate pair without its other half"),
        ("{\"Books\": [{\"pages\": 012}]}", 1, 22, "'012' is not a JSON number"),
        ("{\"Books\": [{\"pages\": 1.}]}", 1, 22, "'1.' is not a JSON number"),
        ("{\"Books\": [{\"pages\": -}]}", 1, 22, "'-' is not a JSON number"),
        ("{\"Books\": [{\"pages\": NaN}]}", 1, 22, "'N' where a value should be"),
        ("{\"Books\": [{\"pages\": True}]}", 1, 22, "'T' where a value should be"),
        ("{\"Books\": [{\"pages\": nul}]}", 1, 22, "not a JSON value (true, false and null are lower case; strings are quoted)"),
        ("{\"Books\": [{\"isbn\": \"1\"}]", 1, 26, "the document ends inside an object"),
        ("{\"Books\": [{\"isbn\": \"1", 1, 21, "a string without its closing quote"),
        ("{\"Books\": []} {}", 1, 15, "more after the root object"),
        ("", 1, 1, "the JSON document is empty"),
        ("[{\"isbn\": \"1\"}]", 0, 0, "section 'shelf' names no entity of the model (Author, Book, Series); map it with --section shelf=Entity; or name the entity of this file's objects with --entity"),
        ("\"Books\"", 1, 1, "the root must be an object of sections (entity names to arrays or objects of objects) or an array of one entity's objects, not a string"),
        ("{\"Books\": []}\n{\"Books\": []}", 2, 1, "more after the root object (JSON Lines, one object a line, are read from a .jsonl file or with --format jsonl)"),
        ("{\"Books\": 3}", 1, 11, "section 'Books' must be an array or an object of objects, not a number"),
        ("{\"Books\": [], \"Books\": []}", 1, 15, "the root object gives the section 'Books' twice"),
        ("{\"Shelves\": []}", 1, 2, "section 'Shelves' names no entity of the model"),
    ] as [(String, Int, Int, String)])
    func malformed(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try Self.error(text)
        #expect(error.location.file.hasSuffix("shelf.json"))
        #expect((error.location.line, error.location.column) == (line, column), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("JSON Lines: one object a line, each mistake at its line", arguments: [
        ("{\"isbn\": \"1\", \"title\": \"A\"}\n{\"isbn\": \"2\",\n \"title\": \"B\"}\n", 2, 1, "an object over lines 2–3: JSON Lines hold one object a line"),
        ("{\"isbn\": \"1\", \"title\": \"A\"} {\"isbn\": \"2\", \"title\": \"B\"}\n", 1, 29, "more after the object on this line: JSON Lines hold one object a line"),
        ("\n[\"1\"]\n", 2, 1, "each line of a JSON Lines file is one Book object, not an array"),
        ("{\"isbn\": \"1\", \"title\": \"A\"}\n{\"isbn\": \"2\"", 2, 13, "the document ends inside an object"),
        ("{\"isbn\": \"1\", \"title\": \"A\", \"pages\": \"many\"}\n", 1, 38, "Book.pages"),
    ] as [(String, Int, Int, String)])
    func jsonLines(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try SourceFormatTests.error(text, file: "Books.jsonl")
        #expect(error.location.file.hasSuffix("Books.jsonl"))
        #expect((error.location.line, error.location.column) == (line, column), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("a root array holds the objects of the entity given, or of the one the file's name names")
    func rootArrays() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        let books = try run.directory.write(#"[{"isbn": "1", "title": "One", "author": "Ann"}]"#, to: "export-2024.json")
        let authors = try run.directory.write(#"{"name": "Ann"}"#, to: "people.jsonl")
        let series = try run.directory.write("{\"publisher\": \"Tor\", \"name\": \"S\"}\n", to: "Series.jsonl")
        let builder = try StoreBuilder(layout: run.layout, outputPath: run.output)
        let importer = SeedImporter(builder: builder)
        try importer.importFile(books, entity: "Book")
        try importer.importFile(authors, entity: "Author")
        try importer.importFile(series)
        try importer.finish()
        _ = try builder.finish()
        #expect(try run.rows("SELECT b.ZISBN, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR") == ["1|Ann"])
        #expect(try run.rows("SELECT ZPUBLISHER, ZNAME FROM ZSERIES") == ["Tor|S"])
        let unnamed = try SourceFormatTests.error("{\"isbn\": \"1\"}\n", file: "export.jsonl")
        #expect(unnamed.message.hasSuffix("or name the entity of this file's objects with --entity"), "\(unnamed)")
        let wrong = try SourceFormatTests.error("[]", file: "Books.json", entity: "Shelf")
        #expect(wrong.message == "the model has no entity 'Shelf' (--entity)")
    }

    @Test("values are checked against their attributes in JSON's words, at the value", arguments: [
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"pages\": true}]}", 2, 39, "Book.pages is Integer 32, not true"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"pages\": 1.5}]}", 2, 39, "Book.pages: '1.5'"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"pages\": 1e3}]}", 2, 39, "Book.pages: '1e3'"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"copies\": 9223372036854775808}]}", 2, 40, "Book.copies: '9223372036854775808'"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"pages\": 2147483648}]}", 2, 39, "Book.pages: '2147483648'"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"isbn\": \"2\"}]}", 2, 30, "the object gives the key 'isbn' twice"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"shelf\": null}]}", 2, 39, "entity 'Book' has no attribute or relationship 'shelf'"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"author\": [1]}]}", 2, 40, "Book.author is a to-one relationship and takes an object or a key, not an array"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": [\"T\"]}]}", 2, 25, "Book.title takes a single value, not an array"),
        ("{\"Authors\": [\n {\"name\": \"A\", \"books\": [null]}]}", 2, 26, "null inside an array: leave the item out"),
        ("{\"Books\": [\n 7]}", 2, 2, "a Book must be an object, not a number"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"@author\": 3}]}", 2, 41, "@author takes one identifier as a string, not a number"),
        ("{\"Books\": {\n \"1\": {\"title\": \"T\"},\n \"1\": {\"title\": \"U\"}}}", 3, 2, "section 'Books' gives the key '1' twice"),
        ("{\"Books\": [\n {\"isbn\": \"1\", \"title\": \"T\", \"author\": \"Nobody\"}]}", 2, 40, "'Nobody'"),
    ] as [(String, Int, Int, String)])
    func values(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try Self.error(text)
        #expect((error.location.line, error.location.column) == (line, column), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("integers reach their attribute exactly (no detour through Double), up to Int64's bounds")
    func exactIntegers() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        try run.build([("shelf.json", """
            {"Books": [{"isbn": "1", "title": "a", "copies": 9223372036854775807}, {"isbn": "2", "title": "b", "copies": -9223372036854775808},
                       {"isbn": "3", "title": "c", "copies": 9007199254740993}, {"isbn": "4", "title": "d", "copies": -0, "price": 1E2}]}
            """)])
        #expect(try run.rows("SELECT ZISBN, ZCOPIES, ZPRICE FROM ZBOOK ORDER BY ZISBN") == [
            "1|9223372036854775807|", "2|-9223372036854775808|", "3|9007199254740993|", "4|0|100",
        ])
    }

    @Test("null is a value not given: a default applies, a merge keeps what another mention gave")
    func null() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        try run.build([("shelf.json", """
            {"Books": [{"isbn": "1", "title": "a", "pages": null, "author": null, "series": null, "notes": null},
                       {"isbn": "2", "title": "b", "notes": "kept"}, {"isbn": "2", "title": "b", "notes": null}],
             "Authors": {"Ann": {"active": null, "books": null}}}
            """)])
        #expect(try run.rows("SELECT ZISBN, ZPAGES, ZAUTHOR IS NULL, ZNOTES FROM ZBOOK ORDER BY ZISBN") == ["1|100|1|", "2|100|1|kept"])
        #expect(try run.rows("SELECT ZNAME, ZACTIVE FROM ZAUTHOR") == ["Ann|1"])
    }

    @Test("hostile JSON: nesting beyond the bound, a byte order mark of UTF-16, bytes that are not UTF-8")
    func hostile() throws {
        let deep = "{\"Books\": [{\"isbn\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}]}"
        #expect(try Self.error(deep).message.contains("nests more than 512 levels"))
        let utf16 = try ImportRun(model: SourceFormatTests.model)
        defer { utf16.directory.remove() }
        let path = utf16.directory.path("shelf.json")
        try Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]).write(to: URL(fileURLWithPath: path))
        let wide = try #require(throws: InputError.self) { try utf16.build(paths: [path]) }
        #expect(wide.message == "JSON sources must be UTF-8")
        try Data("{\"Books\": [{\"isbn\": \"\u{1}\"}]}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError.self) { try utf16.build(paths: [path]) }
        var latin1 = Array("{\"Books\": [{\"isbn\": \"caf".utf8)
        latin1 += [0xE9] + Array("\", \"title\": \"t\"}]}".utf8)
        try Data(latin1).write(to: URL(fileURLWithPath: path))
        let notUTF8 = try #require(throws: InputError.self) { try utf16.build(paths: [path]) }
        #expect(notUTF8.message == "a string that is not UTF-8" && notUTF8.location.column == 21, "\(notUTF8)")
    }

    @Test("a string longer than the reader's chunk, escapes split across chunks, a byte order mark")
    func longValues() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        let long = String(repeating: "ab\\\"\\u00fc", count: 60_000)  // 600 kB of JSON, escapes all along
        try run.build([("shelf.json", "\u{FEFF}{\"Books\": [{\"isbn\": \"1\", \"title\": \"\(long)\"}]}")])
        let title = try #require(try run.rows("SELECT ZTITLE FROM ZBOOK").first)
        #expect(title == String(repeating: "ab\"ü", count: 60_000))
    }
}
