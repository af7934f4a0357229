// libFuzzer target: the model loader (libxml2 tree reader, parser, validation). Any bytes as a
// model's `contents` must load or throw a ModelError: never crash or hang.
// Built by `make fuzz` with swiftc -sanitize=fuzzer,address (not part of the package).
import Foundation

private let path = NSTemporaryDirectory() + "seedgen-model-fuzz-\(getpid())/contents"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    _ = try? ModelLoader.load(from: path)
    return 0
}
