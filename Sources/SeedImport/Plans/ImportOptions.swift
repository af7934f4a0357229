import SeedModel

/// Choices that apply to a whole import.
public struct ImportOptions: Sendable {
    /// The date pattern for Date attributes whose model `userInfo` names none (default ISO 8601).
    public var datePattern: DatePattern
    /// Patterns for single attributes, by `Entity.attribute`; they win over the model's.
    public var attributeDatePatterns: [String: DatePattern]
    /// Seconds east of UTC for dates written without a zone (default 0: UTC).
    public var timeZoneOffset: Int
    /// Build-time keys: entity name -> the attributes that name its objects in this build
    /// (`--key Glass=name`, `--key Serving=cocktail,size`). They merge and name objects exactly
    /// as a uniqueness constraint of the model does, and win over it for that entity and its
    /// sub-entities, but are not part of the model: the store's layout and hashes stay the same.
    public var keys: [String: [String]]
    /// Property-list section names mapped to entity names (`--section Staff=Person`), beyond
    /// each entity's own name and its English plural.
    public var sectionNames: [String: String]
    /// The character between the fields of CSV files (default a comma; TSV files use a tab): one
    /// ASCII character other than a quote, a line break, a letter or a digit.
    public var csvDelimiter: Unicode.Scalar

    /// The defaults: ISO 8601 dates, UTC, the model's own keys and section names, commas in CSV.
    public init(datePattern: DatePattern = .iso8601, attributeDatePatterns: [String: DatePattern] = [:], timeZoneOffset: Int = 0,
                keys: [String: [String]] = [:], sectionNames: [String: String] = [:], csvDelimiter: Unicode.Scalar = ",") {
        self.csvDelimiter = csvDelimiter
        self.datePattern = datePattern
        self.attributeDatePatterns = attributeDatePatterns
        self.timeZoneOffset = timeZoneOffset
        self.keys = keys
        self.sectionNames = sectionNames
    }

    /// True for a character that may separate CSV fields: ASCII, and not a quote, a line break,
    /// a letter or a digit (which would make a field's text ambiguous).
    package static func canDelimitFields(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && !["\"", "\n", "\r"].contains(scalar) && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar)
    }

    /// What is wrong with `keys` for `model`: an unknown entity, an attribute it does not store,
    /// an empty list or an attribute named twice (empty when nothing is).
    package static func problems(ofKeys keys: [String: [String]], in model: DataModel) -> [String] {
        NaturalKey.problems(of: keys, in: model)
    }
}
