import Foundation
import SeedStore

/// Imports source files into a store being built: each file goes through the streaming XML
/// reader to the delegate its root element asks for, and on to one shared repository, so
/// references resolve across files.
public final class SeedImporter {
    /// The repository every file writes into.
    public let repository: SeedRepository

    /// An importer writing into `builder`.
    public init(builder: StoreBuilder, options: ImportOptions = ImportOptions()) {
        self.repository = SeedRepository(builder: builder, options: options)
    }

    /// Imports one file: entity XML, an XML property list (root `<plist>`) or a binary plist.
    public func importFile(_ path: String, progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        try InputFile.requireRegularFile(path)
        if let handle = FileHandle(forReadingAtPath: path) {
            let magic = handle.readData(ofLength: 8)
            try? handle.close()
            if magic == Data("bplist00".utf8) {
                try importBinaryPropertyList(path)
                return
            }
        }
        let dispatcher = RootDispatcher(repository: repository)
        try XMLStreamReader(path: path, delegate: dispatcher).parse(progress: progress)
    }

    /// Binary plists have no lines to report and are small in practice: read with Foundation.
    private func importBinaryPropertyList(_ path: String) throws(InputError) {
        let location = InputLocation(file: path, line: 0, column: 0)
        guard let data = FileManager.default.contents(atPath: path),
              let root = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
            throw InputError("malformed binary property list", at: location)
        }
        guard let sections = root as? [String: Any] else {
            throw InputError("the property list's root must be a dictionary of sections", at: location)
        }
        let writer = PropertyListSectionWriter(repository: repository)
        for key in sections.keys.sorted() {
            let entity = try writer.entity(forSection: key, at: location)
            switch sections[key] {
            case let items as [Any]:
                for item in items { try writer.writeSectionItem(try Self.node(item, location), entity: entity, key: nil) }
            case let keyed as [String: Any]:
                for itemKey in keyed.keys.sorted() {
                    try writer.writeSectionItem(try Self.node(keyed[itemKey]!, location), entity: entity, key: itemKey)
                }
            default:
                throw InputError("section '\(key)' must be an array or a dictionary of objects", at: location)
            }
        }
    }

    private static func node(_ value: Any, _ location: InputLocation, depth: Int = 1) throws(InputError) -> PropertyListNode {
        guard depth < PropertyListDelegate.maximumDepth else {
            throw InputError("the property list nests more than \(PropertyListDelegate.maximumDepth) levels deep", at: location)
        }
        switch value {
        case let text as String:
            return .scalar(text, kind: "string", location)
        case let date as Date:
            // The exact seconds the plist holds: no calendar, no rounding to whole seconds.
            return .scalar("@\(date.timeIntervalSinceReferenceDate)", kind: "date", location)
        case let data as Data:
            return .scalar(data.base64EncodedString(), kind: "data", location)
        case let number as NSNumber:
            return .scalar(number.stringValue, kind: "number", location)
        case let items as [Any]:
            var nodes: [PropertyListNode] = []
            for item in items { nodes.append(try node(item, location, depth: depth + 1)) }
            return .array(nodes, location)
        case let entries as [String: Any]:
            var pairs: [(key: String, value: PropertyListNode)] = []
            for key in entries.keys.sorted() { pairs.append((key, try node(entries[key]!, location, depth: depth + 1))) }
            return .dictionary(pairs, location)
        default:
            throw InputError("unsupported property-list value \(type(of: value))", at: location)
        }
    }

    /// Imports with a delegate of your own (for your own XML format).
    public func importFile(_ path: String, delegate: XMLStreamDelegate, progress: ((Int, Int) -> Void)? = nil) throws(InputError) {
        try XMLStreamReader(path: path, delegate: delegate).parse(progress: progress)
    }

    /// Resolves what is still open and checks required values; call after the last file.
    public func finish() throws(InputError) {
        try repository.finish()
    }
}

/// Chooses the delegate from the root element, then forwards every event to it.
final class RootDispatcher: XMLStreamDelegate {
    private let repository: SeedRepository
    private var target: XMLStreamDelegate?

    init(repository: SeedRepository) {
        self.repository = repository
    }

    func startElement(_ name: String, attributes: XMLAttributes, at location: InputLocation) throws(InputError) {
        if target == nil {
            target = name == "plist"
                ? PropertyListDelegate(repository: repository)
                : EntityXMLDelegate(repository: repository)
        }
        try target!.startElement(name, attributes: attributes, at: location)
    }

    func endElement(_ name: String, at location: InputLocation) throws(InputError) {
        try target?.endElement(name, at: location)
    }

    func characters(_ text: String, at location: InputLocation) throws(InputError) {
        try target?.characters(text, at: location)
    }

    var wantsWhitespaceText: Bool { target?.wantsWhitespaceText ?? false }
}
