import SeedModel

/// The types of Swift's standard library and Apple's frameworks that SwiftData stores natively,
/// with the Core Data attribute type each becomes. A name the sources declare themselves
/// shadows these only where Swift would find the source's first (`TypeNamespace`).
///
/// The evidence for each row is in SwiftDataModels.md's table: a real store's `Z_MODELCACHE`,
/// or *assumed* where no store shows the type yet.
enum StandardTypes {
    /// Scalars: Swift name (as written, typealiases included) -> attribute type.
    static let scalars: [String: AttributeType] = [
        "String": .string, "Substring": .string, "Bool": .boolean,
        "Int": .integer64, "Int64": .integer64, "Int32": .integer32, "Int16": .integer16, "Int8": .integer16,
        "UInt": .integer64, "UInt64": .integer64, "UInt32": .integer64, "UInt16": .integer32, "UInt8": .integer16,
        "Double": .double, "Float64": .double, "TimeInterval": .double, "CGFloat": .double,
        "Float": .float, "Float32": .float,
        "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
    ]

    /// Apple's value types whose stored form real stores show (their source is not the app's):
    /// a Composite of these elements.
    static let composites: [String: [(String, AttributeType)]] = [
        "Color.Resolved": [("linearRed", .float), ("linearGreen", .float), ("linearBlue", .float), ("opacity", .float)],
        // Foundation's localizable string: its key and its arguments' encoded bytes (the
        // SpeziScheduler store's Z_MODELCACHE: `title`, `instructions`).
        "String.LocalizationValue": [("key", .string), ("arguments", .binary)],
    ]

    /// Generic types of the standard library that shape a property's type.
    static let generics: Set<String> = ["Array", "Optional", "Set", "Dictionary", "ContiguousArray"]

    /// Modules whose names may qualify a standard type (`Foundation.Date`, `Swift.Int`).
    static let modules: Set<String> = ["Swift", "Foundation", "SwiftData", "SwiftUI", "CoreGraphics", "CoreFoundation", "UIKit", "AppKit"]

    /// True when `name` is a standard type seedgen knows, stored or shaping.
    static func isKnown(_ name: String) -> Bool {
        scalars[name] != nil || composites[name] != nil || generics.contains(name)
    }

    /// Listed in refusals: what SwiftData stores natively.
    static let summary = "Swift's integers, Float, Double, CGFloat, TimeInterval, Decimal, String, Bool, Date, Data, URL, UUID, their optionals and arrays, Codable structs and enums of the sources, Color.Resolved, @Model classes"
}

extension StandardTypes {
    /// Static members of standard types whose type is the type itself (`Date.now`, `Int.max`),
    /// for a property typed by its initial value.
    static let staticMembers: [String: Set<String>] = {
        let numeric: Set<String> = ["max", "min", "zero"]
        let floating: Set<String> = ["zero", "pi", "infinity", "nan", "greatestFiniteMagnitude", "leastNormalMagnitude", "leastNonzeroMagnitude", "ulpOfOne"]
        var members: [String: Set<String>] = ["Date": ["now", "distantPast", "distantFuture"], "Decimal": ["zero", "pi", "greatestFiniteMagnitude", "leastNormalMagnitude", "leastNonzeroMagnitude"]]
        for type in ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"] { members[type] = numeric }
        for type in ["Double", "Float", "CGFloat", "TimeInterval", "Float32", "Float64"] { members[type] = floating }
        return members
    }()
}
