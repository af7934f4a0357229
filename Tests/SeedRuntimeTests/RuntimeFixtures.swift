import Foundation
import SeedImport
import SeedModel
import SeedModelLoader
import SeedRuntime
import SeedStore
import SeedgenTestSupport

/// Seeds and models for the runtime tests, built from the package's own Seeds folder.
enum RuntimeFixtures {
    static let seeds = Corpus.packageRoot.appendingPathComponent("Seeds")

    static func layout(_ name: String) throws -> StoreLayout {
        try StoreLayout(model: try ModelLoader.load(from: seeds.appendingPathComponent("\(name)/\(name).xcdatamodeld").path))
    }

    /// Builds a store for `layout` at `path` from `inputs` (none: an empty store).
    static func build(_ layout: StoreLayout, at path: String, inputs: [String] = [], updatable: Bool = false) throws {
        let builder = try StoreBuilder(layout: layout, outputPath: path)
        builder.recordsSeed = updatable
        let importer = SeedImporter(builder: builder)
        for input in inputs { try importer.importFile(input) }
        try importer.finish()
        _ = try builder.finish()
    }

    /// The EM-Plan seed, built from Seeds/EMPlan/setup.plist.
    static func emplanSeed(at path: String, updatable: Bool = false) throws {
        try build(try layout("EMPlan"), at: path, inputs: [seeds.appendingPathComponent("EMPlan/setup.plist").path], updatable: updatable)
    }

    /// The EM-Plan seed as an app bundles it: `bundle/EMPlan.sqlite` in `directory`; its path.
    static func bundledEMPlanSeed(in directory: TemporaryDirectory) throws -> String {
        let seed = directory.path("bundle/EMPlan.sqlite")
        try FileManager.default.createDirectory(atPath: directory.path("bundle"), withIntermediateDirectories: true)
        try emplanSeed(at: seed)
        return seed
    }

    /// A Locations seed with `count` events (about 33 bytes each in the store).
    static func locationsSeed(events count: Int, at path: String, in directory: TemporaryDirectory) throws {
        var xml = "<Events>\n"
        for index in 0..<count {
            xml += "<Event creationDate=\"2012-06-\(String(format: "%02d", index % 28 + 1))T12:00:00Z\" latitude=\"\(Double(index % 180) - 89.5)\" longitude=\"\(Double(index % 360) - 179.5)\"/>\n"
        }
        xml += "</Events>\n"
        let input = try directory.write(xml, to: "events-\(count).xml")
        try build(try layout("Locations"), at: path, inputs: [input])
    }

    /// The files in a directory, hidden ones too, sorted.
    static func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }
}
