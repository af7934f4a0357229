import ArgumentParser
import Foundation
import SeedImport
import SeedStore

/// `seedgen dump`: writes a store's objects as entity XML that `build` reads back.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write a store's objects as entity XML; building from it gives the same store.",
        discussion: """
            Rebuild with: seedgen build --model M --output OUT DUMP.xml. The rebuilt file is \
            byte-identical when the store's Z_PK values have no gaps (stores seedgen wrote). \
            Many-to-many relationships cannot be dumped yet.
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @OptionGroup var model: ModelOption

    @Option(help: "The output format (xml).")
    var format: String = "xml"

    @Option(name: .shortAndLong, help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    func run() throws {
        guard format == "xml" else { throw CommandFailure.usage("--format takes xml, not '\(format)'") }
        guard FileManager.default.isReadableFile(atPath: store) else { throw CommandFailure.usage("error: \(store): no such readable store") }
        var dumper = StoreDumper(storePath: store, layout: try model.loadLayout())
        do {
            if let output {
                DurableFile.removeDeadTemporaries(beside: output, purposes: ["seedgen-dump"])
                let temporary = DurableFile.temporaryPath(beside: output, purpose: "seedgen-dump")
                guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
                    throw CommandFailure.failed("error: cannot write \(output)")
                }
                do {
                    try dumper.dump(to: handle)
                    try handle.close()
                    try DurableFile.sync(temporary)
                    try DurableFile.replace(output, with: temporary)
                } catch {
                    DurableFile.removeIfPresent(temporary)
                    throw error
                }
            } else {
                try dumper.dump(to: FileHandle.standardOutput)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.failed("error: cannot dump \(store): \(error)")
        }
        for warning in dumper.warnings.prefix(10) { printError("seedgen: warning: \(warning)") }
    }
}
