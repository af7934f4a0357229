// libFuzzer target: the importer (entity XML, XML plist, binary plist and JSON, chosen by the
// file's first bytes as `seedgen build` does; CSV as Samples.csv when make runs the `csv` corpus,
// SEEDGEN_FUZZ_TARGET=csv) into a store of the fuzz model. Any input must import or
// throw an InputError; the store is abandoned either way, and nothing may crash or hang.
import Foundation
import SeedImport
import SeedStore

let inputName = ProcessInfo.processInfo.environment["SEEDGEN_FUZZ_TARGET"] == "csv" ? "Samples.csv" : "input"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzFixture.write(data, size, to: inputName)
    do {
        let builder = try StoreBuilder(layout: FuzzFixture.layout, outputPath: FuzzFixture.scratch + "/out.sqlite")
        let importer = SeedImporter(builder: builder)
        do {
            try importer.importFile(input)
            try importer.finish()
        } catch {
            return 0  // a clean refusal
        }
    } catch {
        fatalError("cannot start a store: \(error)")
    }
    return 0
}
