// libFuzzer target: the importer (entity XML, XML plist and binary plist, chosen by the file's
// first bytes as `seedgen build` does) into a store of the fuzz model. Any input must import or
// throw an InputError; the store is abandoned either way, and nothing may crash or hang.
import SeedImport
import SeedStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzFixture.write(data, size, to: "input")
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
