// libFuzzer target: the commands that read a store, on a mutated store. A store of the fuzz model
// is built once; each input mutates a copy of it, which the verifier (with the model, then
// without), `dump` (entity XML and plist) and `fetch` (every concrete entity) must read or refuse
// with an error, never crash, hang or grow without bound. The input's first byte picks the mutation:
// even: the rest is SQL run on the copy (seeds change values, keys, tables and metadata);
// odd: the rest is patches of 4 bytes each, a 24-bit offset into the file and the byte to put there.
import Foundation
import SeedDump
import SeedImport
import SeedgenSQLite
import SeedStore

/// Where dumps go: read and thrown away.
let discard = FileHandle(forWritingAtPath: "/dev/null")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    var bytes = FuzzFixture.store
    let rest = UnsafeBufferPointer(start: data + 1, count: size - 1)
    if data[0] & 1 == 1 {
        for patch in stride(from: 0, to: rest.count - 3, by: 4) {
            let offset = (Int(rest[patch]) << 16 | Int(rest[patch + 1]) << 8 | Int(rest[patch + 2])) % bytes.count
            bytes[offset] = rest[patch + 3]
        }
    }
    let path = bytes.withUnsafeBufferPointer { FuzzFixture.write($0.baseAddress!, $0.count, to: "verify.sqlite") }
    if data[0] & 1 == 0 {
        var database: OpaquePointer?
        if sqlite3_open(path, &database) == SQLITE_OK {
            let sql = String(decoding: rest, as: UTF8.self)
            _ = sqlite3_exec(database, sql, nil, nil, nil)
        }
        sqlite3_close(database)
    }
    _ = try? StoreVerifier(storePath: path, layout: FuzzFixture.layout).verify()
    _ = try? StoreVerifier(storePath: path, layout: nil).verify()
    for format in StoreDumper.Format.allCases {
        var dumper = StoreDumper(storePath: path, layout: FuzzFixture.layout)
        try? dumper.dump(to: discard, format: format)
    }
    if let reader = try? StoreReader(path: path) {
        for entity in FuzzFixture.layout.model.entities where !entity.isAbstract {
            _ = try? reader.fetch(FetchRequest(entity: entity.name), layout: FuzzFixture.layout)
        }
    }
    return 0
}
