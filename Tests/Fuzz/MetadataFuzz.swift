// libFuzzer target: the reader of a store's Z_METADATA.Z_PLIST (our own bounded binary plist
// reader), and its rewrite for a migration (the whole property list read, within its nesting
// and object budgets, and written again). Any bytes must decode or throw a DecodingError.
import SeedStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? StoreMetadata(decoding: bytes)
    _ = try? StoreMetadata.rewriting(bytes, for: FuzzFixture.layout.model, buildKeys: [:])
    return 0
}
