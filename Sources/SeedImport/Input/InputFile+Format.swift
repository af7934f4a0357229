import Foundation

extension InputFile {
    /// The formats a source file can be in.
    enum Format {
        case xml, binaryPropertyList, json, jsonLines, csv, tsv
    }

    /// The file's format: a binary plist by its first bytes (`bplist00`); else by its extension
    /// (`.xml`, `.plist`, `.json`, `.jsonl`, `.ndjson`, `.csv`, `.tsv`); else `given`, when the
    /// command line names one; else by its first character after white space (`<` XML, `{` or
    /// `[` JSON, a UTF-16 byte order mark XML). Anything else is refused as of an unknown type,
    /// never guessed.
    func format(given: SourceFormat? = nil) throws(InputError) -> Format {
        let head = try head(64)
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
        throw InputError("unknown file type (\(suffix.isEmpty ? "no extension" : "." + suffix)): name its format with --format \(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))",
                         at: InputLocation(file: path, line: 0, column: 0))
    }
}
