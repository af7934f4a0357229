// libFuzzer target: the predicate compiler and the SQL it makes. The input is an entity name, a
// newline and a predicate; it is parsed, compiled on the fuzz model's layout and fetched from a
// small store with every variable it names set to text. Anything may be refused with an error;
// nothing may crash, hang or make SQL that SQLite rejects as malformed.
import SeedStore

private let storePath: String = {
    let path = FuzzFixture.scratch + "/compile.sqlite"
    FuzzFixture.store.withUnsafeBufferPointer { _ = FuzzFixture.write($0.baseAddress!, $0.count, to: "compile.sqlite") }
    return path
}()
private let reader = try! StoreReader(path: storePath)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let newline = text.firstIndex(of: "\n"),
          let predicate = try? FetchPredicate(parsing: String(text[text.index(after: newline)...])) else { return 0 }
    let variables = Dictionary(uniqueKeysWithValues: predicate.variableNames.map { ($0, SQLValue.text("1")) })
    let request = FetchRequest(entity: String(text[..<newline]), predicate: predicate, variables: variables, limit: 5)
    do {
        _ = try reader.fetch(request, layout: FuzzFixture.layout)
    } catch let error as QueryError {
        _ = error.message
    } catch {
        // SQLite refusing the compiled SQL is a compiler defect, unless it is a value error at run time.
        let message = "\(error)"
        if message.contains("syntax error") || message.contains("no such column") || message.contains("no such table") {
            fatalError("the compiler made bad SQL for \(text.debugDescription): \(message)")
        }
    }
    return 0
}
