import Foundation
import SeedStore

/// Reads a binary property list (`bplist00`) one section item at a time, without building the
/// whole document: the file's bytes are held once (`BinaryPropertyList` reads its objects on
/// demand, every offset and count checked) and each item becomes a `SourceNode` only while
/// it is written. Memory stays within twice the file's size, where Foundation's reader took 16.7
/// times (a 45 MB file of 1M objects peaked at 753 MB). Nesting is bounded by `SourceNode.maximumDepth`
/// (which also ends a document whose objects refer to themselves), and so is the work: objects
/// that several containers share (a DAG) are expanded once per reference, and all expansions
/// together may not outnumber the file's bytes (each reference takes at least one), so a small
/// file of shared arrays cannot stand for billions of objects.
///
/// A binary file has no lines: a place in it is `file:1:column`, the column the byte offset of
/// the object at fault plus one.
final class BinaryPropertyListReader {
    private let plist: BinaryPropertyList
    private let location: InputLocation
    /// Objects expanded so far, against the budget of the file's size.
    private var expanded = 0

    init(file: InputFile) throws(InputError) {
        location = InputLocation(file: file.path, line: 1, column: 1)
        // The bytes, read once into their own array (no second copy through `Data`).
        let bytes = try file.readAll(limit: Int(Int32.max))
        do {
            plist = try BinaryPropertyList(bytes: bytes)
        } catch {
            throw Self.malformed(error, location)
        }
    }

    private static func malformed(_ failure: BinaryPropertyList.Failure, _ location: InputLocation) -> InputError {
        InputError("malformed binary property list: \(failure)", at: location)
    }

    /// Where the object at `index` starts: line 1, its byte offset plus one as the column.
    func location(of index: Int) -> InputLocation {
        guard let offset = try? plist.offset(of: index) else { return location }
        return InputLocation(file: location.file, line: 1, column: offset + 1)
    }

    private func object(_ index: Int) throws(InputError) -> BinaryPropertyList.Object {
        do { return try plist.object(index) } catch { throw Self.malformed(error, location(of: index)) }
    }

    /// The kind of a scalar as the binary reader names it (`string`, `number`, `true`, `false`, `date`).
    private func scalarKind(_ kind: String, at location: InputLocation) throws(InputError) -> ScalarKind {
        if kind == "number" { return .number }
        guard let scalar = ScalarKind(element: kind) else { throw InputError("a binary property-list object of kind '\(kind)' is not a value", at: location) }
        return scalar
    }

    /// A dictionary key: a string object.
    private func string(_ index: Int) throws(InputError) -> String {
        do { return try plist.string(index) } catch { throw Self.malformed(error, location(of: index)) }
    }

    // MARK: - The sections

    /// The root dictionary's keys and the objects they hold, in file order.
    func sections() throws(InputError) -> [(key: String, object: Int)] {
        guard case .dictionary(let entries) = try object(plist.topObject) else {
            throw InputError("the property list's root must be a dictionary of sections", at: location)
        }
        return try entries.map { entry throws(InputError) in (try string(entry.key), entry.value) }
    }

    /// A section's items: the objects of an array, or of a dictionary with their keys.
    func items(of section: Int, named name: String) throws(InputError) -> [(key: String?, object: Int)] {
        switch try object(section) {
        case .array(let items): return items.map { (nil, $0) }
        case .dictionary(let entries): return try entries.map { entry throws(InputError) in (try string(entry.key), entry.value) }
        default: throw InputError("section '\(name)' must be an array or a dictionary of objects", at: location)
        }
    }

    /// One object as a node, its contents nested at most `SourceNode.maximumDepth` levels.
    func node(_ index: Int, depth: Int = 1) throws(InputError) -> SourceNode {
        let location = location(of: index)
        guard depth < SourceNode.maximumDepth else {
            throw InputError("the property list nests more than \(SourceNode.maximumDepth) levels deep", at: location)
        }
        expanded += 1
        guard expanded <= plist.byteCount else {
            throw InputError("the property list's objects are shared so often that reading them would take more than \(plist.byteCount) objects, one per byte of the file", at: location)
        }
        switch try object(index) {
        case .scalar(let text, let kind):
            // A Boolean is its kind, with no text (as in every reader).
            let scalar = try scalarKind(kind, at: location)
            return .scalar(scalar.boolean == nil ? text : "", kind: scalar, location)
        case .data(let bytes): return .scalar(Data(bytes).base64EncodedString(), kind: .data, location)
        case .uid: throw InputError("a UID (a keyed archive's reference), which a source does not give", at: location)
        case .array(let items):
            var nodes = SourceItems()
            for item in items { nodes.append(try node(item, depth: depth + 1)) }
            return .array(nodes, location)
        case .dictionary(let entries):
            var pairs: [(key: String, value: SourceNode)] = []
            var seen: Set<[UInt8]> = []  // as bytes: NFC and NFD are two keys
            for entry in entries {
                let key = try string(entry.key)
                guard seen.insert(Array(key.utf8)).inserted else {
                    throw InputError("a dictionary gives the key '\(key.prefix(80))' twice", at: self.location(of: entry.key))
                }
                pairs.append((key, try node(entry.value, depth: depth + 1)))
            }
            return .dictionary(pairs, location)
        }
    }
}
