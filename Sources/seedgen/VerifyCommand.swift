import ArgumentParser
import SeedStore

/// `seedgen verify`: checks a store against the format and a model.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a store (ours or one Core Data wrote) for damage and against a model.",
        discussion: """
            Exit status: 0 when clean, 1 with findings (one line each: what, where, expected, \
            found: damage, such as a file that is not SQLite, 'integrity'), 2 when the store or \
            model is missing or cannot be read at all. Notes (lines starting with 'note:') tell of what \
            a healthy store may hold, such as what a forward migration by Core Data left, a \
            template seedgen fetch cannot run, or a store an app has used since it was installed \
            from a seed (its content digest and seal changed, WAL mode); they do not make a store \
            unclean. With --as-built the store must be the seed exactly as built (CI).
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(name: .long, help: ArgumentHelp("The model the store should fit. " + modelHelp))
    var model: String?

    @OptionGroup var schema: SchemaOption

    @Flag(help: "Check that the store is the seed exactly as seedgen built it (for CI): its content digest and seal hold and it is one file. Without it, what an app's use changes (rows, an app's metadata key, WAL mode) is a note.")
    var asBuilt = false

    @Flag(help: "Print the findings as JSON.")
    var json = false

    /// The JSON printed with `--json`.
    struct Report: Encodable {
        var store: String
        var model: String?
        var clean: Bool
        var findings: [Finding]
        /// What a healthy store may hold (see the discussion); not findings.
        var notes: [Finding]
    }

    func run() throws {
        var layout: StoreLayout?
        if let model {
            do {
                layout = try StoreLayout(model: loadModel(model, schema: schema.schema))
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure.failed("\(error)")
            }
        }
        let findings: [Finding]
        do {
            findings = try StoreVerifier(storePath: store, layout: layout, asBuilt: asBuilt).verify()
        } catch {
            throw CommandFailure.usage("\(error)")
        }
        let problems = findings.filter { !$0.isNote }.count
        let notes = findings.count - problems
        if json {
            print(try jsonText(Report(store: store, model: model, clean: problems == 0,
                                      findings: findings.filter { !$0.isNote }, notes: findings.filter(\.isNote))))
        } else {
            for finding in findings { printLine(finding.description) }
            let noted = notes == 0 ? "" : " (\(notes) note\(notes == 1 ? "" : "s"))"
            printLine(problems == 0 ? "\(store): clean\(noted)" : "\(store): \(problems) finding(s)\(noted)")
        }
        if problems > 0 { throw CommandFailure(message: nil, exitCode: 1) }
    }
}
