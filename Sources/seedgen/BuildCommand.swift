import ArgumentParser
import Foundation
import SeedModel
import SeedStore

/// `seedgen build`: writes a store in Core Data's layout.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write a store in Core Data's SQLite layout for a model.",
        discussion: """
            The store is built beside OUT under a temporary name and renamed into place only when \
            complete: on any error nothing appears at OUT and an older file there stays. The same \
            model gives a byte-identical file.
            """
    )

    @OptionGroup var model: ModelOption

    @Option(name: .long, help: "The store file to write.")
    var output: String

    @Flag(help: "Print a JSON summary (rows per entity, output sha256).")
    var json = false

    @Flag(help: "Print nothing on success.")
    var quiet = false

    /// The summary printed with `--json`.
    struct Report: Encodable {
        var output: String
        var sha256: String
        var contentDigest: String
        var rows: [String: Int]
        var seconds: Double
    }

    func run() throws {
        let started = Date()
        let layout = try model.loadLayout()
        let summary: StoreBuilder.Summary
        do {
            let sourceDigest = try SourceDigest.compute(files: [layout.model.source])
            let builder = try StoreBuilder(layout: layout, outputPath: output)
            summary = try builder.finish(sourceDigest: sourceDigest)
        } catch {
            throw CommandFailure.failed("error: cannot write \(output): \(error)")
        }
        if json {
            print(try jsonText(Report(output: summary.path, sha256: summary.fileSHA256, contentDigest: summary.contentDigest,
                                      rows: summary.rowCounts, seconds: Date().timeIntervalSince(started))))
        } else if !quiet {
            print("wrote \(summary.path)  sha256 \(summary.fileSHA256)")
            for entity in layout.entities {
                print("  \(entity.name): \(summary.rowCounts[entity.name] ?? 0) rows")
            }
        }
    }
}
