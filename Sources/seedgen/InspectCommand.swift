import ArgumentParser
import SeedModel
import SeedStore

/// `seedgen inspect`: shows what a store holds.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's entities with row counts, its metadata and its pragmas."
    )

    @Argument(help: "The store file.")
    var store: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let report: StoreReport
        do {
            report = try StoreInspector.inspect(store)
        } catch {
            throw CommandFailure.usage("error: cannot inspect \(store): \(error)")
        }
        if json {
            print(try jsonText(report))
            return
        }
        print("store: \(report.path) (\(report.fileSize) bytes)")
        print("uuid: \(report.uuid ?? "-")")
        print("framework version: \(report.frameworkVersion.map(String.init) ?? "-")")
        print("model version identifiers: \(report.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))")
        if let generator = report.generator {
            print("generator: \(generator)")
            print("content digest: \(report.contentDigest ?? "-")")
        }
        print("pragmas: " + report.pragmas.keys.sorted().map { "\($0)=\(report.pragmas[$0]!)" }.joined(separator: " "))
        print("entities:")
        let width = max(6, report.entities.map(\.name.count).max() ?? 0)
        print("  Z_ENT  " + "entity".padding(toLength: width, withPad: " ", startingAt: 0) + "  super  table             rows  Z_MAX")
        for entity in report.entities {
            let columns = [
                String(entity.number).leftPadded(5), entity.name.padding(toLength: width, withPad: " ", startingAt: 0),
                String(entity.superNumber).leftPadded(5), entity.table.padding(toLength: 14, withPad: " ", startingAt: 0),
                (entity.rows.map(String.init) ?? "-").leftPadded(7), String(entity.maxPrimaryKey).leftPadded(6),
            ]
            print("  " + columns.joined(separator: "  "))
        }
        print("version hashes:")
        let nameWidth = report.versionHashes.keys.map(\.count).max() ?? 0
        for name in report.versionHashes.keys.sorted(by: DataModel.namePrecedes) {
            print("  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + report.versionHashes[name]!)
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
