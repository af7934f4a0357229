/// The format of a source file, for a file whose name does not tell it (`seedgen build --format`).
/// A file's own name tells it by its extension (`.xml`, `.plist`, `.json`, `.jsonl`, `.csv`,
/// `.tsv`); a binary property list is known by its first bytes whatever its name.
public enum SourceFormat: String, CaseIterable, Sendable {
    /// Entity XML (or an XML property list: the root element tells them apart).
    case xml
    /// A property list, XML or binary.
    case plist
    /// JSON: an object of sections, or an array of one entity's objects.
    case json
    /// JSON Lines: one entity's objects, one object a line.
    case jsonl
    /// CSV, one entity's rows (comma-separated unless ``ImportOptions/csvDelimiter`` says otherwise).
    case csv
    /// TSV: CSV with tabs between the fields.
    case tsv
}

extension SourceFormat {
    /// The format a file's extension names (`ndjson` is `jsonl`), in any case; nil for another.
    public init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        self.init(rawValue: lowered == "ndjson" ? "jsonl" : lowered)
    }
}
