import Foundation
import SeedImport
import SeedModel
import SeedModelLoader
import SeedRuntime
import SeedStore

/// The runtime's speed targets (issue 4), measured in one run so that the ratio is fair on a
/// noisy machine:
/// 1. opening an installed store and running `initialisationCheck` on 1M rows (≤ 2 ms);
/// 2. installing a ~100 MB seed against `cp` plus fsync of the same file (≤ 1.2×).
///
/// usage: seedgen-bench EVENTS_1M.xml EVENTS_2M.xml [--runs N]
@main
struct RuntimeBenchmark {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            <entity name="Event" representedClassName="Event" syncable="YES" codeGenerationType="class">
                <attribute name="creationDate" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="latitude" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="longitude" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <fetchIndex name="byLatitude">
                    <fetchIndexElement property="latitude" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <fetchRequest name="initialisationCheck" entity="Event" predicateString="latitude &gt;= 89.99" fetchLimit="1"/>
        </model>
        """

    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var runs = 5
        if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
            runs = value
            arguments.removeSubrange(index...index + 1)
        }
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: seedgen-bench EVENTS_1M.xml EVENTS_2M.xml [--runs N]\n".utf8))
            exit(2)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("seedgen-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let modelPath = work.appendingPathComponent("Bench.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: modelPath.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(model.utf8).write(to: modelPath)
        let layout = try StoreLayout(model: try ModelLoader.load(from: modelPath.path))

        let small = work.appendingPathComponent("small.sqlite").path
        let big = work.appendingPathComponent("big.sqlite").path
        for (input, output) in [(arguments.first!, small), (arguments.last!, big)] {
            let builder = try StoreBuilder(layout: layout, outputPath: output)
            let importer = SeedImporter(builder: builder)
            try importer.importFile(input)
            try importer.finish()
            let summary = try builder.finish()
            print("built \(summary.rowCounts["Event"] ?? 0) rows, \(size(of: output) / 1_000_000) MB")
        }

        // 1. Open + initialisationCheck, each time on a new connection.
        var checks: [Double] = []
        var found = false
        for _ in 0..<max(50, runs * 10) {
            let started = DispatchTime.now()
            found = try StoreConnection(path: small, layout: layout, access: .readOnly).isInitialised()
            checks.append(milliseconds(since: started))
        }
        checks.sort()
        print(String(format: "open + initialisationCheck, 1M rows: median %.3f ms, p90 %.3f ms, max %.3f ms over %d runs (found: %@)",
                     checks[checks.count / 2], checks[checks.count * 9 / 10], checks.last!, checks.count, found ? "yes" : "no"))

        // 2. Install vs cp + fsync of the same seed, in alternation.
        let target = work.appendingPathComponent("data/Bench.sqlite").path
        var copies: [Double] = []
        var installs: [Double] = []
        for _ in 0..<(runs + 1) {
            try? FileManager.default.removeItem(atPath: work.appendingPathComponent("data").path)
            try FileManager.default.createDirectory(atPath: work.appendingPathComponent("data").path, withIntermediateDirectories: true)
            var started = DispatchTime.now()
            let cp = Process()
            cp.executableURL = URL(fileURLWithPath: "/bin/cp")
            cp.arguments = [big, target]
            try cp.run()
            cp.waitUntilExit()
            try DurableFile.sync(target)
            copies.append(milliseconds(since: started))
            try FileManager.default.removeItem(atPath: target)

            started = DispatchTime.now()
            let report = try SeedInstaller(seedPath: big, storePath: target, layout: layout).install()
            installs.append(milliseconds(since: started))
            guard report.action == .installed else { throw BenchmarkError(description: "not installed: \(report)") }
        }
        // The first pair warms the cache; it is left out.
        let copy = median(Array(copies.dropFirst()))
        let install = median(Array(installs.dropFirst()))
        print(String(format: "cp + fsync of %d MB: median %.1f ms; install: median %.1f ms", size(of: big) / 1_000_000, copy, install))
        print(String(format: "install / (cp + fsync): %.2f (target <= 1.2)", install / copy))

        // For comparison: the thorough check (quick_check and the content digest as well).
        try FileManager.default.removeItem(atPath: target)
        let started = DispatchTime.now()
        _ = try SeedInstaller(seedPath: big, storePath: target, layout: layout, depth: .thorough).install()
        print(String(format: "install with depth .thorough (one run): %.1f ms, %.2f x (cp + fsync)", milliseconds(since: started), milliseconds(since: started) / copy))
    }

    static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// A run that did not do what it should.
struct BenchmarkError: Error {
    var description: String
}
