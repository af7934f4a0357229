// libFuzzer target: the importer (entity XML, XML plist, binary plist and JSON, chosen by the
// file's first bytes as `seedgen build` does; CSV as Samples.csv when make runs the `csv` corpus,
// SEEDGEN_FUZZ_TARGET=csv) into a store of the fuzz model. Any input must import or
// throw an InputError; the store is rolled back either way, and nothing may crash or hang.
import Foundation
import SeedImport
import SeedStore

let inputName = ProcessInfo.processInfo.environment["SEEDGEN_FUZZ_TARGET"] == "csv" ? "Samples.csv" : "input"

/// One scratch store for every input: each import is rolled back (a fresh store each time, and
/// twice the inputs a second of creating one per input).
let rehearsal = try! StoreRehearsal(layout: FuzzFixture.layout, path: FuzzFixture.scratch + "/rehearsal.sqlite")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzFixture.write(data, size, to: inputName)
    do {
        try rehearsal.rehearse { builder in
            let importer = SeedImporter(builder: builder)
            do {
                try importer.importFile(input)
                try importer.finish()
            } catch {
                // a clean refusal
            }
        }
    } catch {
        fatalError("cannot roll back the scratch store: \(error)")
    }
    return 0
}
