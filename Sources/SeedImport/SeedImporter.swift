import Foundation
import SeedStore

/// Imports source files into a store being built: each file goes through the streaming XML
/// reader to the delegate its root element asks for, and on to one shared repository, so
/// references resolve across files.
public final class SeedImporter {
    /// The repository every file writes into.
    public let repository: SeedRepository
    /// How many files read so far held one entity's objects (CSV, TSV, a JSON array, JSON
    /// Lines): the files an `entity` given to `importFile` can apply to.
    package private(set) var filesOfOneEntity = 0

    /// An importer writing into `builder`.
    public init(builder: StoreBuilder, options: ImportOptions = ImportOptions()) {
        self.repository = SeedRepository(builder: builder, options: options)
        builder.buildKeys = options.keys
    }

    /// Imports one file: entity XML, an XML property list (root `<plist>`), a binary plist,
    /// JSON, or one entity's objects in CSV, TSV, a JSON array or JSON Lines (the entity `entity`
    /// names, or else the one the file's name names), as its extension or first bytes tell, or as
    /// `format` says for a file whose name does not.
    public func importFile(_ path: String, entity: String? = nil, format: SourceFormat? = nil,
                           progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        try importFile(InputFile(opening: path), entity: entity, format: format, progress: progress)
    }

    /// Imports one file opened before (`seedgen build` opens every input before it builds);
    /// see `importFile(_:entity:format:progress:)`.
    package func importFile(_ file: InputFile, entity: String? = nil, format: SourceFormat? = nil,
                            progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        let kind = try file.format(given: format)
        switch kind {
        case .binaryPropertyList:
            try importBinaryPropertyList(file)
        case .json, .jsonLines:
            var reader = JSONSourceReader(file: file, entity: entity, lines: kind == .jsonLines, repository: repository, progress: progress)
            if try reader.read() == .oneEntity { filesOfOneEntity += 1 }
        case .csv, .tsv:
            let delimiter: Unicode.Scalar = kind == .tsv ? "\t" : repository.options.csvDelimiter
            var reader = try CSVSourceReader(file: file, entity: entity, delimiter: delimiter, repository: repository, progress: progress)
            try reader.read()
            filesOfOneEntity += 1
        case .xml:
            try importXML(file, progress: progress)
        }
    }

    private func importXML(_ file: InputFile, progress: ((Int, Int) -> Void)?) throws(InputError) {
        let dispatcher = RootDispatcher(repository: repository)
        try XMLStreamReader(file: file, delegate: dispatcher).parse(progress: progress)
    }

    /// Read one section item at a time (`BinaryPropertyListReader`); a place in the file is
    /// its object's byte offset (`file:1:offset+1`).
    private func importBinaryPropertyList(_ file: InputFile) throws(InputError) {
        let reader = try BinaryPropertyListReader(file: file)
        let writer = SectionWriter(repository: repository)
        var seen: Set<[UInt8]> = []
        // Sections, and a keyed section's items, in the order of their keys' bytes (a dictionary
        // has no order of its own; bytes, as the store's unique index compares keys).
        for (key, section) in try reader.sections().sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let location = reader.location(of: section)
            guard seen.insert(Array(key.utf8)).inserted else { throw InputError("the root dictionary gives the section '\(key.prefix(80))' twice", at: location) }
            let entity = try writer.entity(forSection: key, at: location)
            let items = try reader.items(of: section, named: key)
            let ordered = items.first?.key == nil ? items : items.sorted(by: { $0.key!.utf8.lexicographicallyPrecedes($1.key!.utf8) })
            if let twice = zip(ordered, ordered.dropFirst()).first(where: { $0.0.key != nil && $0.0.key!.utf8.elementsEqual($0.1.key!.utf8) }) {
                throw InputError("section '\(key.prefix(80))' gives the key '\(twice.0.key!.prefix(80))' twice", at: reader.location(of: twice.1.object))
            }
            for item in ordered {
                try writer.writeSectionItem(try reader.node(item.object), entity: entity, key: item.key)
            }
        }
    }

    /// Imports with a delegate of your own (for your own XML format).
    public func importFile(_ path: String, delegate: XMLStreamDelegate, progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        try XMLStreamReader(file: InputFile(opening: path), delegate: delegate).parse(progress: progress)
    }

    /// Resolves what is still open and checks required values; call after the last file.
    public func finish() throws(InputError) {
        try repository.finish()
    }
}
