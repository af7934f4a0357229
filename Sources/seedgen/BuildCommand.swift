import ArgumentParser
import Foundation
import SeedImport
import SeedModel
import SeedStore

/// `seedgen build`: imports source files into a store in Core Data's layout.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Import source files (entity XML, XML or binary plists, JSON, CSV) into a store in Core Data's SQLite layout.",
        discussion: """
            The store is built beside OUT under a temporary name and renamed into place only when \
            complete: on any error nothing appears at OUT and an older file there stays. The same \
            model and inputs give a byte-identical file. Errors name file:line:column and the \
            entity and attribute, and exit 1; a missing input or model, or a bad option, exits 2. \
            Example: seedgen build --model Seeds/EMPlan/EMPlan.xcdatamodeld --output EMPlan.sqlite \
            Seeds/EMPlan/setup.plist
            """
    )

    @OptionGroup var model: ModelOption

    @Option(name: .long, help: "The store file to write.")
    var output: String

    @Argument(help: "Source files, imported in this order; references by key may point across files.")
    var inputs: [String] = []

    @Option(name: .customLong("date-format"), help: ArgumentHelp("Pattern for Date attributes whose model names none (default: ISO 8601), e.g. MM/dd/yyyy.", valueName: "pattern"))
    var dateFormat: DatePatternArgument?

    @Option(name: .customLong("date-format-for"), help: ArgumentHelp("Pattern for one attribute, over the model's own: Entity.attribute=PATTERN.", valueName: "spec"))
    var attributeDateFormats: [AttributeDatePattern] = []

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("Zone of dates written without one: UTC (default) or an offset such as +02:00.", valueName: "zone"))
    var timeZone: TimeZoneOffset = .utc

    @Option(name: .customLong("key"), help: ArgumentHelp("Name and merge the objects of an entity by these attributes in this build, without a uniqueness constraint in the model (its layout and hashes stay): Entity=attribute[,attribute…]. References to a key of several attributes give the values separated by '|'. A key may name one to-one beside its attributes (Ingredient=recipe,name): its objects are then named within the object it points at, by that object's key, and neither merged nor named by references.", valueName: "spec"))
    var keys: [KeySpec] = []

    @Option(name: .customLong("section"), help: ArgumentHelp("A section name for an entity, beyond its own name and its English plural (a property list's or JSON section, or a one-entity file's name): Section=Entity.", valueName: "spec"))
    var sections: [SectionSpec] = []

    @Option(name: .customLong("entity"), help: ArgumentHelp("The entity of the objects in CSV, TSV, JSON Lines files and JSON arrays, where their file names do not name it (Products.csv holds Product's).", valueName: "name"))
    var csvEntity: String?

    @Option(help: ArgumentHelp("The format of inputs whose names do not tell it (.xml, .plist, .json, .jsonl, .csv, .tsv do; a binary plist is known by its bytes).", valueName: "xml|plist|json|jsonl|csv|tsv"))
    var format: SourceFormat?

    @Option(help: ArgumentHelp("The character between the fields of CSV files, e.g. ';' or tab (TSV files use tabs).", valueName: "char"))
    var delimiter: FieldDelimiter?

    @Option(name: .customLong("framework-version"),
            help: ArgumentHelp("Write the layout Core Data of this framework version writes (NSPersistenceFrameworkVersion; default \(FrameworkEra.newest.version), the newest era), and record it.", valueName: "N"))
    var frameworkVersion: Int = FrameworkEra.newest.version

    @Flag(help: ArgumentHelp("Carry the seed's packed record (10 bytes an object), so that installing it to be updated later (seedgen install, the runtime's policy .update) is a copy: for an app that will ever ship a newer seed."))
    var updatable = false

    @Flag(help: "Print a JSON summary (rows per entity, seconds, output sha256).")
    var json = false

    @Flag(help: "Print nothing on success, and no progress.")
    var quiet = false

    /// The summary printed with `--json`.
    struct Report: Encodable {
        var output: String
        var sha256: String
        var contentDigest: String
        /// SHA-256 of the model and input files (for CI logs; not in the store).
        var sourceDigest: String
        var rows: [String: Int]
        var seconds: Double
        /// Seconds spent reading the inputs, and finishing the store (digest, copy, sync).
        var importSeconds: Double
        var finishSeconds: Double
        /// Whether the store was written once (in place) or copied at the finish (`StoreBuilder.finish`).
        var writtenInPlace: Bool
    }

    /// The largest framework version taken: today's is 1344; a number far past it is a typo.
    static let newestPlausibleFrameworkVersion = 9999
    /// How many inputs stay open from their check to their import (the rest are opened again).
    static let inputsKeptOpen = 64

    func validate() throws {
        if output.isEmpty { throw ValidationError("--output needs a file name, not an empty one") }
        if let dateFormat, let problem = dateFormat.problem {
            throw ValidationError(dateFormat.text.isEmpty ? "--date-format \(problem) (leave it out for ISO 8601)" : "--date-format: \(problem)")
        }
        var attributes: Set<String> = []
        for format in attributeDateFormats {
            if let problem = format.pattern.problem { throw ValidationError("--date-format-for \(format.attribute): \(problem)") }
            guard attributes.insert(format.attribute).inserted else { throw ValidationError("--date-format-for \(format.attribute) is given twice; once per attribute") }
        }
        for (index, key) in keys.enumerated() where keys[..<index].contains(where: { $0.entity == key.entity }) {
            throw ValidationError("--key \(key.entity) is given twice; once per entity")
        }
        for (index, section) in sections.enumerated() where sections[..<index].contains(where: { $0.section == section.section }) {
            throw ValidationError("--section \(section.section) is given twice; once per section")
        }
        if frameworkVersion > Self.newestPlausibleFrameworkVersion {
            throw ValidationError("--framework-version \(frameworkVersion) is no Core Data framework version (today's newest is about 1344; at most \(Self.newestPlausibleFrameworkVersion))")
        }
    }

    func run() throws {
        let started = Date()
        var options = importOptions()
        guard frameworkVersion >= FrameworkEra.oldestKnown else {
            throw CommandFailure.usage("--framework-version \(frameworkVersion): the oldest framework whose layout is known is \(FrameworkEra.oldestKnown)")
        }
        let layout = try model.loadLayout(era: FrameworkEra(version: frameworkVersion))
        try readKeysAndSections(into: &options, model: layout.model)
        // Every input is opened and checked (a regular file) here, before anything is built; the
        // import reads what was opened. Past the first `inputsKeptOpen`, each is set aside once
        // checked and opened again for its import (a seed may hold more files than may be open).
        var files: [InputFile] = []
        do {
            for input in inputs {
                let file = try InputFile(opening: input)
                if files.count >= Self.inputsKeptOpen { file.setAside() }
                files.append(file)
            }
        } catch {
            throw CommandFailure.usage("\(error)")
        }
        // The store replaces the file at --output: never one of the inputs (or the model).
        let target = URL(fileURLWithPath: output).resolvingSymlinksInPath().standardized.path
        for source in inputs + [model.model] where URL(fileURLWithPath: source).resolvingSymlinksInPath().standardized.path == target {
            throw CommandFailure.usage("--output \(output) is one of the inputs (\(source)); the store would replace it")
        }
        let summary: StoreBuilder.Summary
        var imported = started
        let interrupts = Interrupts.removingTemporaries(beside: output, purposes: StoreBuilder.temporaryPurposes)
        defer { withExtendedLifetime(interrupts) {} }
        do {
            let builder = try StoreBuilder(layout: layout, outputPath: output)
            builder.recordsSeed = updatable
            let importer = SeedImporter(builder: builder, options: options)
            let progress = BuildProgress(enabled: !quiet && !json && isatty(2) != 0, repository: importer.repository, inputs: files, started: started)
            defer { progress.endLine() }
            for (index, file) in files.enumerated() {
                try importer.importFile(file, entity: csvEntity, format: format) { progress.report(file: index, read: $0, of: $1) }
                file.setAside()  // read: its descriptor is not needed again
            }
            if csvEntity != nil, importer.filesOfOneEntity == 0 { throw CommandFailure.usage(Self.entityWithoutUse) }
            defer { for warning in importer.repository.warnings { printError("seedgen: warning: \(warning)") } }
            progress.phase("resolving references, defaults and required values; copy and indexes")
            try importer.finish()
            imported = Date()
            progress.phase("content digest, seal and sync")
            summary = try builder.finish()
            progress.done()
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as InputError {
            throw CommandFailure.failed("\(error)")
        } catch let failure as DurableFile.Failure {
            throw CommandFailure.failed("\(failure)")  // names the path itself
        } catch {
            throw CommandFailure.failed("cannot write \(output): \(error)")
        }
        if json {
            print(try jsonText(Report(output: summary.path, sha256: summary.fileSHA256, contentDigest: summary.contentDigest,
                                      sourceDigest: try SourceDigest.compute(files: [layout.model.source] + inputs),
                                      rows: summary.rowCounts, seconds: Date().timeIntervalSince(started),
                                      importSeconds: imported.timeIntervalSince(started), finishSeconds: Date().timeIntervalSince(imported),
                                      writtenInPlace: summary.writtenInPlace)))
        } else if !quiet {
            print("wrote \(summary.path)  sha256 \(summary.fileSHA256)")
            for entity in layout.entities {
                print("  \(entity.name): \(summary.rowCounts[entity.name] ?? 0) rows")
            }
        }
    }

    /// The options `validate()` checked, as the importer takes them.
    private func importOptions() -> ImportOptions {
        var options = ImportOptions()
        if let pattern = dateFormat?.pattern { options.datePattern = pattern }
        for format in attributeDateFormats {
            options.attributeDatePatterns[format.attribute] = format.pattern.pattern
        }
        options.timeZoneOffset = timeZone.seconds
        return options
    }

    /// `--key`, `--section`, `--entity` and `--delimiter`, checked against the model and the inputs.
    private func readKeysAndSections(into options: inout ImportOptions, model: DataModel) throws {
        for key in keys {
            options.keys[key.entity] = key.attributes
        }
        if let problem = ImportOptions.problems(ofKeys: options.keys, in: model).first {
            throw CommandFailure.usage(problem)
        }
        for section in sections {
            guard model.entity(named: section.entity) != nil else {
                throw CommandFailure.usage("--section \(section.section)=\(section.entity): the model has no entity '\(section.entity)'")
            }
            options.sectionNames[section.section] = section.entity
        }
        if let csvEntity {
            guard model.entity(named: csvEntity) != nil else { throw CommandFailure.usage("--entity \(csvEntity): the model has no entity '\(csvEntity)'") }
            guard hasInput(of: [.csv, .tsv, .json, .jsonl]) else {
                throw CommandFailure.usage(Self.entityWithoutUse)
            }
        }
        if let delimiter {
            guard hasInput(of: [.csv]) else { throw CommandFailure.usage("--delimiter separates the fields of CSV files, and no input is a .csv file (nor --format csv)") }
            options.csvDelimiter = delimiter.scalar
        }
    }

    static let entityWithoutUse = "--entity names the entity of the objects in CSV, TSV, JSON Lines files and JSON arrays, and no input is one"

    /// True when an input is of one of `formats`, by its extension or else by `--format`.
    private func hasInput(of formats: Set<SourceFormat>) -> Bool {
        inputs.contains { input in
            (SourceFormat(fileExtension: URL(fileURLWithPath: input).pathExtension) ?? format).map(formats.contains) ?? false
        }
    }
}

/// `--format xml|plist|json|jsonl|csv|tsv`.
extension SourceFormat: ExpressibleByArgument {}
