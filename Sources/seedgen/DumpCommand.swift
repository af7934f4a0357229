import ArgumentParser
import Foundation
import SeedDump
import SeedImport
import SeedStore

/// `seedgen dump`: writes a store's objects as entity XML or an XML plist that `build` reads back.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write a store's objects as entity XML or an XML plist; building from it gives the same objects.",
        discussion: """
            Writes every object of the store, table by table in Z_PK order, with its attribute \
            values exactly as stored: text as written, numbers in shortest round-trip form, data \
            as base64, dates as ISO 8601 in UTC with the fraction digits that give the stored \
            seconds back (2024-05-01T09:30:00.25Z), or as @ and the seconds since 2001 with \
            --dates seconds, or where no ISO 8601 text would give them back or the attribute's \
            own dateFormat reads its dates. Rebuild with: seedgen build --model M --output OUT \
            DUMP.xml (add --framework-version N for a store an older Core Data wrote). Every \
            object gets an identifier (seedgen:id, @id in a plist) and relationships name objects \
            by it, so any model can be dumped: the one its build gave it when the seed (or an \
            installed store's record) keeps it, else #Entity-k (never recorded). The rebuilt store has the same objects, \
            values, relationships and order; it is byte-identical when the store's Z_PK values \
            have no gaps (stores seedgen wrote). Example: seedgen dump build/seeds/EMPlan.sqlite \
            --model Seeds/EMPlan/EMPlan.xcdatamodeld --output EMPlan.xml
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @OptionGroup var model: ModelOption

    @Option(help: "The output format: xml (entity XML) or plist (an XML property list).")
    var format: StoreDumper.Format = .xml

    @Option(help: ArgumentHelp("How dates are written: iso8601 (UTC, exact) or seconds (@ and the seconds since 2001-01-01T00:00:00Z, as stored).", valueName: "iso8601|seconds"))
    var dates: StoreDumper.DateStyle = .iso8601

    @Option(name: .shortAndLong, help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    func validate() throws {
        if output?.isEmpty == true { throw ValidationError("--output needs a file name, not an empty one") }
    }

    func run() throws {
        try FileRefusal.checkStore(store)
        var dumper = StoreDumper(storePath: store, layout: try model.loadLayout())
        dumper.dates = dates
        do {
            if let output {
                // The same files as build's --output: never a directory, FIFO or device.
                do { try DurableFile.requireWritableDestination(output) } catch { throw CommandFailure.usage("\(error)") }
                DurableFile.removeDeadTemporaries(beside: output, purposes: ["seedgen-dump"])
                let temporary = DurableFile.temporaryPath(beside: output, purpose: "seedgen-dump")
                guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
                    throw CommandFailure.failed("cannot write \(output)")
                }
                do {
                    try dumper.dump(to: handle, format: format)
                    try handle.close()
                    try DurableFile.sync(temporary)
                    try DurableFile.replace(output, with: temporary)
                } catch {
                    DurableFile.removeIfPresent(temporary)
                    throw error
                }
            } else {
                try dumper.dump(to: FileHandle.standardOutput, format: format)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as SQLiteError {
            throw CommandFailure.file(error, "cannot dump \(store): \(error)")
        } catch {
            throw CommandFailure.failed("cannot dump \(store): \(error)")
        }
        for warning in dumper.warnings.prefix(10) { printError("seedgen: warning: \(warning)") }
    }
}

/// `dump --format xml|plist`.
extension StoreDumper.Format: ExpressibleByArgument {}

/// `dump --dates iso8601|seconds`.
extension StoreDumper.DateStyle: ExpressibleByArgument {}
