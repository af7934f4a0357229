/// The format of a source file, for a file whose name does not tell it (`seedgen build --format`).
/// A file's own name tells it by its extension (`.xml`, `.plist`, `.json`, `.csv`); a binary
/// property list is known by its first bytes whatever its name.
public enum SourceFormat: String, CaseIterable, Sendable {
    /// Entity XML (or an XML property list: the root element tells them apart).
    case xml
    /// A property list, XML or binary.
    case plist
    /// JSON.
    case json
    /// CSV, one entity's rows.
    case csv
}
