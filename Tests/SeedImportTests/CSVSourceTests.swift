import Foundation
import SeedImport
import SeedStore
import SeedgenTestSupport
import Testing

/// CSV sources (RFC 4180): one entity per file, a header of names, each mistake named with its
/// file, line, column and column name, and nothing written.
@Suite("CSV sources")
struct CSVSourceTests {
    static func error(_ text: String, file: String = "Books.csv", entity: String? = nil) throws -> InputError {
        try SourceFormatTests.error(text, file: file, entity: entity)
    }

    @Test("mistakes name the line, the column and the column's name", arguments: [
        ("isbn,title,pages\n1,One,12\n2,Two\n", 3, 1, "a row of 2 field(s); the header has 3"),
        ("isbn,title,pages\n1,One,x12\n", 2, 7, "Book.pages: 'x12'"),
        ("isbn,title,pages\n1,\"One\nand more\",1\n2,Two,99999999999\n", 4, 7, "Book.pages: '99999999999'"),
        ("isbn,title,shelf\n", 1, 12, "entity 'Book' has no attribute or to-one relationship 'shelf'"),
        ("isbn,title,isbn\n", 1, 12, "the header names 'isbn' twice"),
        ("isbn,,title\n", 1, 6, "column 2 of the header has no name"),
        ("name,books\n", 1, 6, "Author.books is a to-many relationship: give it from the other side (a to-one column there), or by identifiers in an @books column"),
        ("isbn,title\n1,\"One\n", 2, 3, "a quoted field without its closing quote"),
        ("isbn,title\n1,\"One\"x\n", 2, 8, "text after a quoted field's closing quote"),
        ("isbn,title\n1,O\"ne\n", 2, 4, "a quote inside an unquoted field"),
        ("isbn,title\r1,One\n", 1, 11, "a carriage return alone ends no record"),
        ("isbn,@shelf\n", 1, 6, "Book has no relationship 'shelf'"),
        ("isbn,title,author\n1,One,Nobody\n", 2, 7, "'Nobody'"),
        ("", 1, 1, "the CSV file is empty: it needs a header row of attribute names"),
    ] as [(String, Int, Int, String)])
    func mistakes(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let name = text.hasPrefix("name,") ? "Authors.csv" : "Books.csv"
        let error = try Self.error(text, file: name)
        #expect(error.location.file.hasSuffix(name))
        #expect((error.location.line, error.location.column) == (line, column), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("the file's name names the entity unless one is given; an unknown name says how to map it")
    func entityNames() throws {
        let unknown = try Self.error("isbn,title\n1,One\n", file: "export-2024.csv")
        #expect(unknown.message.contains("section 'export-2024' names no entity of the model"), "\(unknown)")
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        let path = try run.directory.write("isbn,title,author\n1,One,Ann\n", to: "export-2024.csv")
        let authors = try run.directory.write("name,@books\nAnn,\n", to: "book.CSV")
        let builder = try StoreBuilder(layout: run.layout, outputPath: run.output)
        let importer = SeedImporter(builder: builder)
        try importer.importFile(path, entity: "Book")
        try importer.importFile(authors, entity: "Author")
        try importer.finish()
        _ = try builder.finish()
        #expect(try run.rows("SELECT b.ZISBN, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR") == ["1|Ann"])
        let wrong = try Self.error("isbn\n1\n", entity: "Shelf")
        #expect(wrong.message == "the model has no entity 'Shelf' (--entity)")
    }

    @Test("a delimiter is one ASCII character other than a quote, a line break, a letter or a digit", arguments: ["\"", "\n", "\r", "a", "7", "é"] as [Unicode.Scalar])
    func delimiters(_ delimiter: Unicode.Scalar) throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        var options = ImportOptions()
        options.csvDelimiter = delimiter
        let error = try #require(throws: InputError.self) { try run.build([("Books.csv", "isbn\n1\n")], options: options) }
        #expect(error.message.contains("cannot separate fields"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: run.output))
    }

    @Test("empty is nil, \"\" is the empty string; identifiers in @ columns; blank lines skipped; CRLF")
    func fields() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        try run.build([
            ("Books.csv", "isbn,title,notes,pages,@id,@author\r\n1,\"a, \"\"b\"\"\",,,one,ann\r\n\r\n2,b,\"\",7,,ann\r\n"),
            ("Authors.csv", "@id,name,@books\nann,Ann,one\n"),
        ])
        #expect(try run.rows("SELECT b.ZISBN, b.ZTITLE, b.ZNOTES IS NULL, b.ZNOTES, b.ZPAGES, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR ORDER BY 1")
                == ["1|a, \"b\"|1||100|Ann", "2|b|0||7|Ann"])
    }

    @Test("bytes that are not UTF-8 are refused at their field")
    func notUTF8() throws {
        let run = try ImportRun(model: SourceFormatTests.model)
        defer { run.directory.remove() }
        let path = run.directory.path("Books.csv")
        try Data(Array("isbn,title\n1,caf".utf8) + [0xE9] + [0x0A]).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: InputError.self) { try run.build(paths: [path]) }
        #expect(error.message == "a field that is not UTF-8" && error.location.line == 2 && error.location.column == 3, "\(error)")
    }
}
