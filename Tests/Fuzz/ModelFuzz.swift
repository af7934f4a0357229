// libFuzzer target: the model loader (libxml2 tree reader, parser, validation), then the version
// hashes and the store layout of what loads. Any bytes as a model's `contents` must load or throw
// a ModelError: never crash or hang.
// Built by `make fuzz` (not part of the package).
import Foundation
import SeedModel
import SeedModelLoader
import SeedStore

private let path = FuzzFixture.scratch + "/model/contents"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    if let model = try? ModelLoader.load(from: path) {
        _ = VersionHasher(model: model).entityHashes()
        _ = try? StoreLayout(model: model)
    }
    return 0
}
