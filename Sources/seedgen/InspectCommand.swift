import ArgumentParser
import SeedModel
import SeedStore

/// `seedgen inspect`: shows what a store holds.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's entities with row counts, its metadata, its pragmas and what its tables take (seedgen's own share: a seed's model, an installed store's record)."
    )

    @Argument(help: "The store file.")
    var store: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        try FileRefusal.checkStore(store)
        let report: StoreReport
        do {
            report = try StoreInspector.inspect(store)
        } catch {
            throw CommandFailure.file(error, "cannot inspect \(store): \(error)")
        }
        if json {
            print(try jsonText(report))
            return
        }
        printLine("store: \(report.path) (\(report.fileSize) bytes)")
        printLine("uuid: \(report.uuid ?? "-")")
        printLine("framework version: \(report.frameworkVersion.map(String.init) ?? "-")")
        printLine("model version identifiers: \(report.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))")
        if let generator = report.generator {
            printLine("generator: \(generator)")
            printLine("content digest: \(report.contentDigest ?? "-")")
        }
        if !report.metadata.isEmpty {
            printLine("metadata:")
            for key in report.metadata.keys.sorted() { printLine("  \(key): \(report.metadata[key]!)") }
        }
        if let space = report.space, space.total > 0 {
            let share = Double(space.seedRecord) / Double(space.total) * 100
            printLine("space: \(space.total) bytes in tables and indexes; seedgen's own (model, record) \(space.seedRecord) bytes (\(String(format: "%.1f", share))%)")
        }
        printLine("pragmas: " + report.pragmas.keys.sorted().map { "\($0)=\(report.pragmas[$0]!)" }.joined(separator: " "))
        printLine("entities:")
        let width = max(6, report.entities.map(\.name.count).max() ?? 0)
        printLine("  Z_ENT  " + "entity".padding(toLength: width, withPad: " ", startingAt: 0) + "  super  table             rows  Z_MAX")
        for entity in report.entities {
            let columns = [
                String(entity.number).leftPadded(5), entity.name.padding(toLength: width, withPad: " ", startingAt: 0),
                String(entity.superNumber).leftPadded(5), entity.table.padding(toLength: 14, withPad: " ", startingAt: 0),
                (entity.rows.map(String.init) ?? "-").leftPadded(7), String(entity.maxPrimaryKey).leftPadded(6),
            ]
            printLine("  " + columns.joined(separator: "  "))
        }
        printLine("version hashes:")
        let nameWidth = report.versionHashes.keys.map(\.count).max() ?? 0
        for name in report.versionHashes.keys.sorted(by: DataModel.namePrecedes) {
            printLine("  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + report.versionHashes[name]!)
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
