// What the libFuzzer targets that need a model or a store share (built by `make fuzz`, not part
// of the package): the fuzz model, a scratch directory of this process, and a small store built
// from the import corpus. SEEDGEN_ROOT names the repository (make runs the targets in build/fuzz).
import Foundation
import SeedImport
import SeedModel
import SeedModelLoader
import SeedStore

enum FuzzFixture {
    static let root = ProcessInfo.processInfo.environment["SEEDGEN_ROOT"] ?? "../.."

    /// A directory of this process, removed by nothing: the fuzzer is killed, not stopped.
    static let scratch: String = {
        let path = NSTemporaryDirectory() + "seedgen-fuzz-\(getpid())"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Tests/Fuzz/FuzzModel.xcdatamodel: every attribute type, inheritance, every relationship kind.
    static let layout: StoreLayout = try! StoreLayout(model: ModelLoader.load(from: root + "/Tests/Fuzz/FuzzModel.xcdatamodel"))

    /// The bytes of a store built from the import corpus's cup.xml.
    static let store: [UInt8] = {
        let path = scratch + "/base.sqlite"
        let builder = try! StoreBuilder(layout: layout, outputPath: path)
        let importer = SeedImporter(builder: builder)
        try! importer.importFile(root + "/Tests/Fuzz/corpus/xml/cup.xml")
        try! importer.finish()
        _ = try! builder.finish()
        return [UInt8](FileManager.default.contents(atPath: path)!)
    }()

    /// Writes `size` bytes at `data` to a file of the scratch directory and returns its path.
    static func write(_ data: UnsafePointer<UInt8>, _ size: Int, to name: String) -> String {
        let path = scratch + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
        return path
    }
}
