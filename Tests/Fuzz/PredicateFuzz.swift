// libFuzzer target: the NSPredicate parser. Any input must parse or throw a
// PredicateSyntaxError; it must never crash, hang or exhaust the stack.
// Built by `make fuzz` (not part of the package).
import SeedStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let predicate = try? FetchPredicate(parsing: text) {
        _ = predicate.variableNames
    }
    return 0
}
