import Foundation
import SeedgenTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `seedgen build` killed with SIGKILL at random moments, with an older store at `--output`:
/// the older store stays byte for byte, or a whole new store is in its place; the next build
/// leaves no temporary behind. `make test` kills 10 builds; `make kill-test` kills 100
/// (`SEEDGEN_KILLS`).
@Suite(.serialized) struct BuildKillTests {
    static let kills = Int(ProcessInfo.processInfo.environment["SEEDGEN_KILLS"] ?? "") ?? 10

    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Event">
            <attribute name="creationDate" optional="YES" attributeType="Date"/>
            <attribute name="latitude" optional="YES" attributeType="Double"/>
            <attribute name="note" optional="YES" attributeType="String"/>
        </entity>
        </model>
        """

    /// Ctrl-C or SIGTERM while the scratch database is being written: exit 130 or 143, the older
    /// store as it was, and none of the build's temporaries beside it (not even until the next run).
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedBuildRemovesItsTemporaries(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.model, to: "Events.xcdatamodel/contents")
        let rows = (0..<300_000).map { "<Event latitude=\"\($0)\" note=\"event number \($0)\"/>" }
        let input = try directory.write("<Events>\n" + rows.joined(separator: "\n") + "\n</Events>\n", to: "events.xml")
        let output = directory.path("out.sqlite")
        #expect(try SeedgenTool.run(["build", "--model", directory.path("Events.xcdatamodel"), "--output", output, "--quiet",
                                     try directory.write("<Events><Event note=\"older\"/></Events>", to: "older.xml")]).status == 0)
        let older = try Data(contentsOf: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = try #require(SeedgenTool.program(named: "seedgen"))
        process.arguments = ["build", "--model", directory.path("Events.xcdatamodel"), "--output", output, "--quiet", input]
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).filter { $0.hasPrefix(".out.sqlite.seedgen-") }
        }
        while temporaries().isEmpty && process.isRunning && Date() < deadline { usleep(2_000) }
        #expect(!temporaries().isEmpty, "the build never wrote its scratch database")
        usleep(200_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(temporaries() == [])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == older)
    }

    @Test func killedBuildsKeepTheOlderStoreOrLeaveAWholeNewOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.model, to: "Events.xcdatamodel/contents")
        let model = directory.path("Events.xcdatamodel")
        let rows = (0..<60_000).map { "<Event creationDate=\"2012-06-08T16:00:\(String(format: "%02d", $0 % 60))Z\" latitude=\"\($0)\" note=\"event number \($0)\"/>" }
        let input = try directory.write("<Events>\n" + rows.joined(separator: "\n") + "\n</Events>\n", to: "events.xml")
        let older = try directory.write("<Events><Event note=\"older\"/></Events>", to: "older.xml")
        let output = directory.path("out.sqlite")

        // The two stores a run may leave: the older one, or the new one (builds are reproducible).
        let started = Date()
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", input]).status == 0)
        // Kills spread over a little more than one whole build.
        let duration = Date().timeIntervalSince(started) * 1.2
        let newBytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", older]).status == 0)
        let olderBytes = try Data(contentsOf: URL(fileURLWithPath: output))

        var replaced = 0
        for _ in 0..<Self.kills {
            try SeedgenTool.kill(["build", "--model", model, "--output", output, "--quiet", input], after: Double.random(in: 0..<duration))
            let now = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(now == olderBytes || now == newBytes, "after a kill the output is neither the older store nor the whole new one")
            if now == newBytes {
                replaced += 1
                // Put the older store back for the next round.
                #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", older]).status == 0)
            }
        }
        // The next build cleans what the killed ones left, and leaves nothing of its own.
        #expect(try SeedgenTool.run(["build", "--model", model, "--output", output, "--quiet", input]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == newBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == ["Events.xcdatamodel", "events.xml", "older.xml", "out.sqlite"])
        print("build kill test: \(Self.kills) kills, \(replaced) left the whole new store, \(Self.kills - replaced) the older one")
    }
}
