import Foundation
import SeedgenTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The installer under faults, with real processes: killed at random moments, and started
/// sixteen at once.
@Suite(.serialized) struct InstallFaultTests {
    static let locations = SeedgenTool.program(named: "locations")
    static let emplan = SeedgenTool.program(named: "emplan")

    /// Starts a program without waiting; its output goes to files in `directory`.
    static func launch(_ program: URL?, _ arguments: [String], output: String) throws -> Process {
        let process = Process()
        guard let program else { throw CocoaError(.fileNoSuchFile) }
        process.executableURL = program
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: output + ".err", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".err"))
        try process.run()
        return process
    }

    /// Starts `count` `emplan status` processes at once on `data` and returns what each printed
    /// (standard output, then standard error), after checking that each exited 0 and saw an
    /// initialised store.
    static func emplanTogether(_ count: Int, data: String, seed: String, in directory: TemporaryDirectory) throws -> [String] {
        let model = RuntimeFixtures.seeds.appendingPathComponent("EMPlan/EMPlan.xcdatamodeld").path
        let processes = try (0..<count).map { index in
            try launch(emplan, ["status", "--data-dir", data, "--seed", seed, "--model", model], output: directory.path("p\(index).out"))
        }
        return try processes.enumerated().map { index, process in
            process.waitUntilExit()
            let output = try String(contentsOfFile: directory.path("p\(index).out"), encoding: .utf8)
            #expect(process.terminationStatus == 0, "\(output)")
            #expect(output.contains("initialisationCheck: initialised"), "\(output)")
            #expect(output.contains("16 teams, 31 matches"))
            return output + (try String(contentsOfFile: directory.path("p\(index).out.err"), encoding: .utf8))
        }
    }

    /// A directory with the EM-Plan seed at `seed/EMPlan.sqlite`.
    static func emplanSeed(in directory: TemporaryDirectory) throws -> String {
        let seed = directory.path("seed/EMPlan.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("seed"), withIntermediateDirectories: true)
        try RuntimeFixtures.emplanSeed(at: seed)
        return seed
    }

    @Test func killedAtRandomMomentsLeavesNoStoreOrAWholeOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = directory.path("seed/Locations.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("seed"), withIntermediateDirectories: true)
        try RuntimeFixtures.locationsSeed(events: 60_000, at: seed, in: directory)
        let seedBytes = try #require(RuntimeFixtures.bytes(seed))
        let model = RuntimeFixtures.seeds.appendingPathComponent("Locations/Locations.xcdatamodeld").path
        let data = directory.path("data")
        let store = data + "/Locations.sqlite"
        let arguments = ["list", "--limit", "1", "--data-dir", data, "--seed", seed, "--model", model]

        // When the store appears in a start (the rename that ends the install), the fastest of
        // three: kills spread up to a little past it, so they land before the copy, inside it and
        // after the rename. Spread over the whole start instead, they mostly came after the
        // rename where a process runs long after its install (ThreadSanitizer: 182 of 200), and
        // at times none landed inside the copy.
        var installed = Double.infinity
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: data)
            let started = Date()
            let first = try Self.launch(Self.locations, arguments, output: directory.path("first.out"))
            while first.isRunning && !FileManager.default.fileExists(atPath: store) { usleep(200) }
            installed = min(installed, Date().timeIntervalSince(started))
            first.waitUntilExit()
            #expect(first.terminationStatus == 0)
            #expect(RuntimeFixtures.bytes(store) == seedBytes)
        }
        let span = max(installed, 0.02) * 1.3
        print("the store appears after \(Int(installed * 1000)) ms")

        var outcomes: [String: Int] = [:]
        for round in 0..<200 {
            try? FileManager.default.removeItem(atPath: data)
            let child = try Self.launch(Self.locations, arguments, output: directory.path("kill.out"))
            usleep(useconds_t(Double.random(in: 0...span) * 1_000_000))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let files = RuntimeFixtures.listing(data)
            if files.contains("Locations.sqlite") {
                #expect(RuntimeFixtures.bytes(store) == seedBytes, "round \(round): a store that is not the whole seed")
                outcomes["whole store", default: 0] += 1
            } else {
                outcomes["no store", default: 0] += 1
            }
            if files.contains(where: { $0.contains(".seedgen-install-") }) { outcomes["stray temporary", default: 0] += 1 }
            #expect(files.allSatisfy { $0 == "Locations.sqlite" || $0.hasPrefix(".Locations.sqlite.seedgen-") }, "round \(round): \(files)")

            // The next start succeeds and leaves the whole seed and nothing else.
            let next = try Self.launch(Self.locations, arguments, output: directory.path("next.out"))
            next.waitUntilExit()
            #expect(next.terminationStatus == 0, "round \(round): \((try? String(contentsOfFile: directory.path("next.out.err"), encoding: .utf8)) ?? "")")
            #expect(RuntimeFixtures.bytes(store) == seedBytes)
            #expect(RuntimeFixtures.listing(data) == [".Locations.sqlite.seedgen-lock", "Locations.sqlite"], "round \(round)")
        }
        // The kills must have landed on both sides of the rename, and inside the copy.
        #expect(outcomes["whole store", default: 0] > 0 && outcomes["no store", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["stray temporary", default: 0] > 0, "\(outcomes)")
        print("kill -9 outcomes over 200 rounds: \(outcomes)")
    }

    @Test func sixteenProcessesAtOnceCopyOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = try Self.emplanSeed(in: directory)
        let data = directory.path("data")
        let outputs = try Self.emplanTogether(16, data: data, seed: seed, in: directory)
        #expect(outputs.filter { $0.contains("installed the seed store") }.count == 1)
        #expect(RuntimeFixtures.bytes(data + "/EMPlan.sqlite") == RuntimeFixtures.bytes(seed))
        #expect(RuntimeFixtures.listing(data) == [".EMPlan.sqlite.seedgen-lock", "EMPlan.sqlite"])
    }

    @Test func eightProcessesOnAnEmptyStoreFillItOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = try Self.emplanSeed(in: directory)
        let data = directory.path("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try RuntimeFixtures.build(try RuntimeFixtures.layout("EMPlan"), at: data + "/EMPlan.sqlite")
        let outputs = try Self.emplanTogether(8, data: data, seed: seed, in: directory)
        #expect(outputs.filter { $0.contains("filled") }.count == 1)
        let files = RuntimeFixtures.listing(data)
        #expect(files.count == 3 && files.filter { $0.hasPrefix("EMPlan.sqlite.replaced-") }.count == 1, "\(files)")
    }
}
