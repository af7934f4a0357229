// libFuzzer target: the reader of a store's Z_METADATA.Z_PLIST (our own bounded binary plist
// reader). Any bytes must decode or throw a DecodingError.
import SeedStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? StoreMetadata(decoding: Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
