import Foundation
import SeedgenTestSupport
import Testing

/// Values as Core Data stores them, through the command line: what goes in comes back out the
/// same through `fetch` and `dump`, whatever the year, and UUIDs are named by their text.
@Suite("Stored values: dates in one calendar, UUIDs, external-storage Binary")
struct StoredValueTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Photo">
            <attribute name="id" attributeType="UUID"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
            <attribute name="taken" optional="YES" attributeType="Date"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        </model>
        """

    static let photos = """
        <Photos>
        <Photo id="E621E1F8-C36C-495A-93FC-0C247A3E6E5F" image="AQID" thumbnail="AQID" taken="1500-03-01T12:00:00Z"/>
        <Photo id="0b9a1d2e-0000-4000-8000-000000000002" taken="0001-01-01T00:00:00Z"/>
        <Photo id="0B9A1D2E-0000-4000-8000-000000000003" taken="2012-06-08T16:00:00.25Z"/>
        </Photos>
        """

    struct Built {
        let directory: TemporaryDirectory
        var model: String { directory.path("Photos.xcdatamodel") }
        var store: String { directory.path("photos.sqlite") }

        init() throws {
            directory = try TemporaryDirectory()
            try directory.write(StoredValueTests.model, to: "Photos.xcdatamodel/contents")
            let input = try directory.write(StoredValueTests.photos, to: "photos.xml")
            let result = try SeedgenTool.run(["build", "--model", directory.path("Photos.xcdatamodel"), "--output", directory.path("photos.sqlite"), "--quiet", input])
            #expect(result.status == 0, "\(result)")
        }

        func fetch(_ arguments: [String]) throws -> [[String: FetchCommandTests.Value]] {
            let result = try SeedgenTool.run(["fetch", store, "--model", model, "--entity", "Photo", "--json", "--sort", "taken"] + arguments)
            #expect(result.status == 0, "\(result)")
            return try JSONDecoder().decode([FetchCommandTests.Object].self, from: Data(result.output.utf8)).map(\.values)
        }
    }

    @Test("dates before 1582 and in year 1 come back as they went in (proleptic Gregorian), with their fraction")
    func datesInOneCalendar() throws {
        let built = try Built()
        defer { built.directory.remove() }
        let taken = try built.fetch([]).map { $0["taken"] }
        #expect(taken == [.text("0001-01-01T00:00:00Z"), .text("1500-03-01T12:00:00Z"), .text("2012-06-08T16:00:00.250Z")])
        // The stored seconds, as Python's proleptic Gregorian datetime computes them independently.
        let rows = try SQLiteShell.rows(built.store, "SELECT ZTAKEN FROM ZPHOTO ORDER BY ZTAKEN LIMIT 2")
        #expect(rows == ["-63113904000", "-15804936000"])
    }

    @Test("UUIDs: printed as UUID text, and a predicate names one by its text, in any case")
    func uuids() throws {
        let built = try Built()
        defer { built.directory.remove() }
        #expect(try built.fetch([]).map { $0["id"] } == [
            .text("0B9A1D2E-0000-4000-8000-000000000002"), .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            .text("0B9A1D2E-0000-4000-8000-000000000003"),
        ])
        let found = try built.fetch(["--predicate", "id == \"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\""])
        #expect(found.map { $0["taken"] } == [.text("1500-03-01T12:00:00Z")])
        #expect(try built.fetch(["--predicate", "id IN {\"0B9A1D2E-0000-4000-8000-000000000003\", \"x\"}"]).count == 1)
    }

    @Test("Binary with external storage: stored behind the 0x01 marker, fetched and dumped without it; other Binary unmarked")
    func externalStorageMarker() throws {
        let built = try Built()
        defer { built.directory.remove() }
        #expect(try SQLiteShell.rows(built.store, "SELECT hex(ZIMAGE), hex(ZTHUMBNAIL) FROM ZPHOTO WHERE ZIMAGE IS NOT NULL") == ["01010203|010203"])
        #expect(try built.fetch([]).map { $0["image"] }[1] == .text("AQID"))
        // dump, then build from the dump: the same bytes.
        let dump = built.directory.path("dump.xml")
        #expect(try SeedgenTool.run(["dump", built.store, "--model", built.model, "--output", dump]).status == 0)
        #expect(try String(contentsOfFile: dump, encoding: .utf8).contains("image=\"AQID\""))
        let rebuilt = built.directory.path("rebuilt.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", built.model, "--output", rebuilt, "--quiet", dump]).status == 0)
        #expect(try SeedgenTool.run(["verify", rebuilt, "--model", built.model]).status == 0)
        #expect(try SQLiteShell.rows(rebuilt, "SELECT hex(ZIMAGE) FROM ZPHOTO WHERE ZIMAGE IS NOT NULL") == ["01010203"])
    }

    @Test("verify: an unmarked external-storage value is a finding; a reference to an external file in a seed checked as built is one too, in a used store a note")
    func verifyMarkers() throws {
        let built = try Built()
        defer { built.directory.remove() }
        #expect(try SeedgenTool.run(["verify", built.store, "--model", built.model]).status == 0)
        let unmarked = try built.directory.copy(URL(fileURLWithPath: built.store), as: "unmarked.sqlite")
        try SQLiteShell.execute("UPDATE ZPHOTO SET ZIMAGE = X'0203' WHERE ZIMAGE IS NOT NULL", on: unmarked)
        let result = try SeedgenTool.run(["verify", unmarked, "--model", built.model])
        #expect(result.status == 1 && result.output.contains("external-binary: Photo.image (column ZIMAGE)"), "\(result)")
        #expect(result.output.contains("1 value(s) without it"), "\(result)")
        let external = try built.directory.copy(URL(fileURLWithPath: built.store), as: "external.sqlite")
        let reference = "02" + Array("5D0C4A3E-2F1B-4C6D-8E9F-0A1B2C3D4E5F".utf8).map { String(format: "%02X", $0) }.joined() + "00"
        try SQLiteShell.execute("UPDATE ZPHOTO SET ZIMAGE = X'\(reference)' WHERE ZIMAGE IS NOT NULL", on: external)
        let seed = try SeedgenTool.run(["verify", external, "--model", built.model, "--as-built"])
        #expect(seed.status == 1 && seed.output.contains("1 value(s) kept in external files"), "\(seed)")
        // Installed and used by an app (one that saves large values externally): a note.
        let used = try SeedgenTool.run(["verify", external, "--model", built.model])
        #expect(used.status == 0 && used.output.contains("note: ") && used.output.contains("1 value(s) kept in external files"), "\(used)")
    }
}
