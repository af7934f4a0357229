import Foundation
import SeedgenTestSupport
import Testing

/// Inputs a hostile or careless user gives: each must end in a clear error (exit 1, the place
/// named), never a crash or a hang, and leave nothing behind.
@Suite("Hostile input: no crash, no hang, nothing left behind")
struct HostileInputTests {
    static let folder = Corpus.packageRoot.appendingPathComponent("Seeds/EMPlan")
    static let model = folder.appendingPathComponent("EMPlan.xcdatamodeld").path

    /// Builds `input` into `directory/out.sqlite`; the result, and what the directory holds after.
    static func build(_ input: String, in directory: TemporaryDirectory) throws -> (SeedgenTool.Result, [String]) {
        let result = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("out.sqlite"), input], timeout: 60)
        let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        #expect(SeedgenTool.staysWithinMemory(result, input: size), "\(input): \(result.peakMemory ?? -1) bytes")
        return (result, try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted())
    }

    @Test("a directory or a FIFO given as an input file: exit 2 (a file that cannot be read) at once, said so, no scratch file left")
    func specialFilesAsInput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("folder.xml"), withIntermediateDirectories: true)
        let (folder, afterFolder) = try Self.build(directory.path("folder.xml"), in: directory)
        #expect(folder.status == 2 && folder.error.contains("folder.xml: is a directory, not a source file"), "\(folder)")
        #expect(afterFolder == ["folder.xml"])
        #expect(mkfifo(directory.path("pipe.xml"), 0o644) == 0)
        let (fifo, afterFIFO) = try Self.build(directory.path("pipe.xml"), in: directory)
        #expect(fifo.status == 2 && fifo.error.contains("pipe.xml: is not a regular file"), "\(fifo)")
        #expect(afterFIFO == ["folder.xml", "pipe.xml"])
        // The store commands read only regular files too (opening a FIFO would block).
        for command in ["verify", "inspect"] {
            let fifoStore = try SeedgenTool.run([command, directory.path("pipe.xml")], timeout: 60)
            #expect(fifoStore.status == 2 && fifoStore.error.contains("not a regular file"), "\(command): \(fifoStore)")
            let folderStore = try SeedgenTool.run([command, directory.path("folder.xml")], timeout: 60)
            #expect(folderStore.status == 2 && folderStore.error.contains("a directory, not a store file"), "\(command): \(folderStore)")
        }
    }

    @Test("a property list nested 50,000 levels deep (XML and binary): exit 1 with the place, no crash", arguments: ["xml", "binary"])
    func deeplyNestedPropertyList(_ format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let depth = 50_000
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>Teams</key>"#
            + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</dict></plist>"
        let path = directory.path("deep.plist")
        if format == "xml" {
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        } else {
            // 600 levels: enough to pass the bound, small enough for Foundation's own reader.
            var value: Any = [Any]()
            for _ in 0..<600 { value = [value] }
            try PropertyListSerialization.data(fromPropertyList: ["Teams": value], format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
        }
        let (result, after) = try Self.build(path, in: directory)
        #expect(result.status == 1, "\(result.error.prefix(500))")
        #expect(result.error.contains("deep.plist:") && result.error.contains("nests more than 512 levels deep"), "\(result.error.prefix(500))")
        #expect(after == ["deep.plist"])
    }

    /// Half a million objects, each given by one short line, with what the build keeps to its end.
    static let objectLines: [String: @Sendable (Int) -> String] = [
        "identifiers": { #"<Player name="\#($0)" seedgen:id="\#($0)"/>"# },
        "dangling keys": { #"<Player name="\#($0)" team="t\#($0)"/>"# },
    ]

    /// Each is kept compactly (`KeyTable`, `PendingReferences`): before, 1M identifiers took
    /// 345 MB and 1M dangling keys 264 MB, well past the bound (about 215 and 195 MB there), and a
    /// pending reference about 220 bytes.
    @Test("500,000 identifiers, dangling keys or dangling identifiers (a million in JSON): exit 1 naming the first dangling one, within the memory bound",
          arguments: ["identifiers", "dangling keys", "dangling identifiers", "dangling identifiers (plist)", "dangling identifiers (JSON)"])
    func manyHeldToTheEnd(_ name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // JSON's at a million: its tree nodes kept each kind as a String until they were 16 bytes
        // smaller (a ScalarKind), and then 1M identifiers took 118 MB, 1 MB past the bound.
        let identifiers = (0..<(name.hasSuffix("(JSON)") ? 1_000_000 : 500_000)).map { "t\($0)" }
        if name.hasSuffix("(plist)") || name.hasSuffix("(JSON)") {
            // One item's @players: read as a tree (each identifier a node), before, boxed one by one.
            let plist = name.hasSuffix("(plist)")
            let text = plist
                ? "<plist version=\"1.0\"><dict><key>Teams</key><array><dict><key>name</key><string>A</string><key>@players</key><array>"
                    + identifiers.map { "<string>\($0)</string>" }.joined() + "</array></dict></array></dict></plist>\n"
                : #"{"Teams": [{"name": "A", "@players": ["# + identifiers.map { "\"\($0)\"" }.joined(separator: ",") + "]}]}\n"
            let file = plist ? "many.plist" : "many.json"
            try directory.write(text, to: file)
            let (result, after) = try Self.build(directory.path(file), in: directory)
            #expect(result.status == 1 && result.error.contains("Team.players: no object has the identifier 't0'"), "\(result.error.prefix(300))")
            #expect(after == [file])
            return
        }
        var text = "<Cup xmlns:seedgen=\"urn:seedgen:source\">\n"
        if name == "dangling identifiers" {
            // One to-many naming them all: 7 bytes of input a reference.
            text += #"<Team name="A" seedgen:players=""# + identifiers.joined(separator: " ") + "\"/>\n"
        } else {
            let line = try #require(Self.objectLines[name])
            for number in 0..<500_000 { text += line(number) + "\n" }
        }
        // The identifiers' build fails at the end too, so that the peak is the one at `finish`.
        if name == "identifiers" { text += #"<Player name="last" seedgen:team="missing"/>"# + "\n" }
        text += "</Cup>\n"
        try directory.write(text, to: "many.xml")
        let (result, after) = try Self.build(directory.path("many.xml"), in: directory)
        #expect(result.status == 1, "\(result.error.prefix(300))")
        let first = name == "identifiers" ? "many.xml:500002:" : "many.xml:2:"
        #expect(result.error.contains(first) && result.error.contains(name == "dangling keys" ? "no Team has the key 't0'" : "identifier"), "\(result.error.prefix(300))")
        #expect(after == ["many.xml"])
    }

    /// Predicates nested far too deep, by name (the texts are long: built in the test).
    static let deepPredicates: [String: String] = [
        "20,000 parentheses": String(repeating: "(", count: 20_000) + "name == 'x'" + String(repeating: ")", count: 20_000),
        "60,000 !": String(repeating: "!", count: 60_000) + "name == 'x'",
        "20,000 NOT": String(repeating: "NOT ", count: 20_000) + "name == 'x'",
        "20,000 nested lists": "name IN " + String(repeating: "{", count: 20_000) + "'x'" + String(repeating: "}", count: 20_000),
    ]

    @Test("predicates nested 20,000 '(' or 60,000 '!' deep: exit 1, the position, a short message",
          arguments: ["20,000 parentheses", "60,000 !", "20,000 NOT", "20,000 nested lists"])
    func deeplyNestedPredicate(_ name: String) throws {
        let predicate = try #require(Self.deepPredicates[name])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("EMPlan.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", Self.model, "--output", store, "--quiet"]).status == 0)
        let result = try SeedgenTool.run(["fetch", store, "--model", Self.model, "--entity", "Team", "--predicate", predicate], timeout: 60)
        #expect(result.status == 1, "\(result.error.prefix(300))")
        #expect(result.error.contains("nested more than 200 levels deep"), "\(result.error.prefix(300))")
        #expect(result.error.count < 400, "the message is \(result.error.count) characters long")
        #expect(SeedgenTool.staysWithinMemory(result, input: predicate.utf8.count), "\(result.peakMemory ?? -1) bytes")
    }

    @Test("an OR chain of 1,000 terms runs (SQLite's depth limit is not hit), and a query SQLite refuses is exit 1 with a short message")
    func longOrChain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("EMPlan.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", Self.model, "--output", store, "--quiet", Self.folder.appendingPathComponent("setup.plist").path]).status == 0)
        let chain = (0..<1_000).map { "name == 'x\($0)'" }.joined(separator: " OR ") + " OR name == 'Polen'"
        let result = try SeedgenTool.run(["fetch", store, "--model", Self.model, "--entity", "Team", "--predicate", chain], timeout: 60)
        #expect(result.status == 0, "\(result.error.prefix(300))")
        #expect(result.output.hasSuffix("1 object(s)\n"), "\(result.output.suffix(200))")
        #expect(SeedgenTool.staysWithinMemory(result, input: chain.utf8.count), "\(result.peakMemory ?? -1) bytes")
    }

    @Test("a template of 40,000 OR terms runs in fetch and passes verify (balanced in SQL, no depth limit hit)")
    func hugeTemplate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let terms = (0..<40_000).map { "name == &quot;x\($0)&quot;" }.joined(separator: " OR ")
        let (model, store) = try FetchCommandTests.modelWithTemplate(terms, in: directory)
        let fetch = try SeedgenTool.run(["fetch", store, "--model", model, "--template", "initialisationCheck"], timeout: 120)
        #expect(fetch.status == 0 && fetch.output == "0 object(s)\n", "\(fetch.error.prefix(300))")
        let verify = try SeedgenTool.run(["verify", store, "--model", model], timeout: 120)
        #expect(verify.status == 0, "\(verify.output.prefix(300))")
        for run in [fetch, verify] {
            #expect(SeedgenTool.staysWithinMemory(run, input: terms.utf8.count), "\(run.peakMemory ?? -1) bytes")
        }
    }

    @Test("an inheritance chain of 1,000 levels hashes and builds (it took minutes: the work was cubic in the depth)")
    func deepInheritanceChain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var entities = [#"<entity name="E0"><attribute name="a0" optional="YES" attributeType="String"/></entity>"#]
        for level in 1..<1_000 {
            entities.append(#"<entity name="E\#(level)" parentEntity="E\#(level - 1)"><attribute name="a\#(level)" optional="YES" attributeType="String"/></entity>"#)
        }
        try directory.write(#"<?xml version="1.0"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
                            + entities.joined(separator: "\n") + "</model>", to: "Chain.xcdatamodel/contents")
        let model = directory.path("Chain.xcdatamodel")
        // A limit far above the time it takes now (well under a second), far below what it took.
        let hash = try SeedgenTool.run(["hash", "--model", model], timeout: 60)
        #expect(hash.status == 0 && hash.output.split(separator: "\n").count == 1_000, "\(hash.error.prefix(300))")
        let build = try SeedgenTool.run(["build", "--model", model, "--output", directory.path("chain.sqlite"), "--quiet"], timeout: 60)
        #expect(build.status == 0, "\(build.error.prefix(300))")
        let verify = try SeedgenTool.run(["verify", directory.path("chain.sqlite"), "--model", model], timeout: 60)
        #expect(verify.status == 0, "\(verify.output.prefix(300))")
        for run in [hash, build, verify] {
            #expect(SeedgenTool.staysWithinMemory(run, input: entities.joined().utf8.count), "\(run.peakMemory ?? -1) bytes")
        }
    }

    @Test("--output that is a directory, a device or a FIFO, one of the inputs, or too long a name: refused, nothing replaced")
    func badOutputs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write("<Cup/>\n", to: "in.xml")
        #expect(mkfifo(directory.path("pipe.sqlite"), 0o644) == 0)
        try FileManager.default.createDirectory(atPath: directory.path("folder.sqlite"), withIntermediateDirectories: true)
        let cases: [(String, Int32, String)] = [
            ("/dev/null", 1, "cannot write /dev/null: it is not a regular file"),
            (directory.path("pipe.sqlite"), 1, "pipe.sqlite: it is not a regular file"),
            (directory.path("folder.sqlite"), 1, "folder.sqlite: it is a directory"),
            (input, 2, "is one of the inputs"),
            (directory.path(String(repeating: "n", count: 230) + ".sqlite"), 1, "the file name is 237 bytes"),
        ]
        for (output, status, message) in cases {
            let result = try SeedgenTool.run(["build", "--model", Self.model, "--output", output, input], timeout: 60)
            #expect(result.status == status && result.error.contains(message), "\(output): \(result)")
        }
        var isDevice = stat()
        #expect(stat("/dev/null", &isDevice) == 0 && isDevice.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a device")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "<Cup/>\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["folder.sqlite", "in.xml", "pipe.sqlite"])
    }

    @Test("a build removes what dead builds left beside its output, and never a live build's files")
    func removesDeadBuildsLeftovers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // No process has an id as high as pid_max: these belong to a dead build.
        let pidMax = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let dead = [".out.sqlite.seedgen-scratch-\(pidMax)-1", ".out.sqlite.seedgen-scratch-\(pidMax)-1-journal", ".out.sqlite.seedgen-tmp-\(pidMax)-2"]
        let live = ".out.sqlite.seedgen-scratch-\(getpid())-3"  // this test process is alive
        for name in dead + [live, ".other.sqlite.seedgen-scratch-\(pidMax)-4"] { try directory.write("x", to: name) }
        let result = try SeedgenTool.run(["build", "--model", Self.model, "--output", directory.path("out.sqlite"), "--quiet"], timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == [live, ".other.sqlite.seedgen-scratch-\(pidMax)-4", "out.sqlite"].sorted())
    }

    /// A binary plist with one crafted object table: header, objects, offsets, trailer.
    static func binaryPlist(objects: [[UInt8]], top: Int = 0, offsetSize: UInt8 = 1, referenceSize: UInt8 = 1,
                            count: UInt64? = nil, tableOffset: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes.append(UInt8(truncatingIfNeeded: offset)) }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        func big(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
        bytes += big(count ?? UInt64(objects.count)) + big(UInt64(top)) + big(tableOffset ?? UInt64(table))
        return bytes
    }

    @Test("crafted binary plists: truncated, offsets and counts past the file, an object that contains itself, unknown markers: exit 1, no crash",
          arguments: ["truncated trailer", "offset table past the file", "reference to no object", "count past the file",
                      "array containing itself", "dictionary key that is a number", "unknown marker", "top object out of range"])
    func craftedBinaryPlists(_ name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let key: [UInt8] = [0x56] + Array("Groups".utf8)  // ASCII string of 6
        let plist: [UInt8]
        switch name {
        case "truncated trailer": plist = Array(Self.binaryPlist(objects: [[0xD0]]).dropLast(10))
        case "offset table past the file": plist = Self.binaryPlist(objects: [[0xD0]], tableOffset: 1 << 40)
        case "reference to no object": plist = Self.binaryPlist(objects: [[0xD1, 1, 9], key])
        case "count past the file": plist = Self.binaryPlist(objects: [[0xDF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], key])
        case "array containing itself": plist = Self.binaryPlist(objects: [[0xD1, 1, 2], key, [0xA1, 2]])
        case "dictionary key that is a number": plist = Self.binaryPlist(objects: [[0xD1, 1, 1], [0x10, 5]])
        case "unknown marker": plist = Self.binaryPlist(objects: [[0xD1, 1, 2], key, [0xE0]])
        default: plist = Self.binaryPlist(objects: [[0xD0]], top: 7)
        }
        let path = directory.path("crafted.bplist")
        try Data(plist).write(to: URL(fileURLWithPath: path))
        let (result, after) = try Self.build(path, in: directory)
        #expect(result.status == 1, "\(name): \(result)")
        // A binary file's place is line 1 and the byte offset of the object at fault plus one.
        #expect(result.error.contains("crafted.bplist:1:") && !result.error.contains("crafted.bplist:1:0:"), "\(name): \(result.error)")
        #expect(after == ["crafted.bplist"])
    }
}

extension HostileInputTests {
    @Test("a store whose Z_PLIST is an input the metadata fuzzer crashed Foundation's reader with: verify and inspect refuse it, no crash")
    func craftedStoreMetadata() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("crafted.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", Self.model, "--output", store, "--quiet"], timeout: 60).status == 0)
        for input in try FuzzRegressions.inputs(of: "metadata") {
            try SQLiteShell.execute("UPDATE Z_METADATA SET Z_PLIST = \(SQLiteShell.blobLiteral(input.bytes))", on: store)
            let before = try Data(contentsOf: URL(fileURLWithPath: store))
            for command in [["verify", store, "--model", Self.model], ["verify", store], ["inspect", store]] {
                let result = try SeedgenTool.run(command, timeout: 60)
                #expect([1, 2].contains(result.status), "\(command): \(result)")
                #expect(result.output.contains("Z_PLIST") || result.error.contains("Z_PLIST")
                        || result.output.contains("metadata") || result.error.contains("metadata"), "\(command): \(result)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "\(input.name): the store was changed")
        }
    }
}
