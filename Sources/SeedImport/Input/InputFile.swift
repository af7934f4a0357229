import Foundation
import SeedStore

/// Source files are regular files: a directory is a mistake, and opening a FIFO or a device
/// would block or read without end.
enum InputFile {
    /// Throws unless `path` names a regular file (after symbolic links).
    static func requireRegularFile(_ path: String) throws(InputError) {
        let location = InputLocation(file: path, line: 0, column: 0)
        let kind = FileSystem.kind(of: path)
        if kind == .missing { throw InputError("no such readable file", at: location) }
        if let what = kind.notAFile { throw InputError("is \(what), not a source file", at: location) }
    }

    /// Opens a regular file for reading: its descriptor and its size, or the error naming it.
    static func openForReading(_ path: String) throws(InputError) -> (descriptor: Int32, size: Int) {
        try requireRegularFile(path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError("cannot open the file: \(String(cString: strerror(errno)))", at: InputLocation(file: path, line: 0, column: 0))
        }
        var status = stat()
        return (descriptor, fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0)
    }
}

extension InputFile {
    /// The formats a source file can be in.
    enum Format {
        case xml, binaryPropertyList, json, jsonLines, csv, tsv
    }

    /// A file's format: a binary plist by its first bytes (`bplist00`); else by its extension
    /// (`.xml`, `.plist`, `.json`, `.jsonl`, `.ndjson`, `.csv`, `.tsv`); else `given`, when the
    /// command line names one; else
    /// by its first character after white space (`<` XML, `{` or `[` JSON, a UTF-16 byte order
    /// mark XML). Anything else is refused as of an unknown type, never guessed.
    static func format(of path: String, given: SourceFormat? = nil) throws(InputError) -> Format {
        let location = InputLocation(file: path, line: 0, column: 0)
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("cannot open the file", at: location) }
        let head = [UInt8](handle.readData(ofLength: 64))
        try? handle.close()
        if head.starts(with: "bplist00".utf8) { return .binaryPropertyList }
        let suffix = URL(fileURLWithPath: path).pathExtension
        let named = SourceFormat(fileExtension: suffix) ?? given
        switch named {
        case .xml?, .plist?: return .xml
        case .json?: return .json
        case .jsonl?: return .jsonLines
        case .csv?: return .csv
        case .tsv?: return .tsv
        case nil: break
        }
        let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        let first = body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return .json }
        if first == UInt8(ascii: "<") || head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return .xml }
        throw InputError("unknown file type (\(suffix.isEmpty ? "no extension" : "." + suffix)): name its format with --format \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))", at: location)
    }
}
