import SeedStore

/// A value as a source gives it: text to convert by the attribute's type, or a value that is
/// already typed (a property list's `<date>`, say).
public enum SourceValue: Sendable, Hashable {
    case text(String)
    case value(SQLValue)
}
