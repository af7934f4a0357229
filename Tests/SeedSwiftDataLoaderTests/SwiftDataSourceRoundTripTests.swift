import Foundation
import SeedModel
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

/// The reader as a round trip: a model generated at random is written as SwiftData sources, and
/// reading them gives the same model back (entities, attribute types, optionality, literal
/// defaults, uniqueness, relationships with their inverses, counts and delete rules, and enums
/// with raw values: their cases, each raw value as Swift gives it, and an initial case).
///
/// The same model is spelled as Swift lets an app spell it, and names must resolve as the
/// compiler resolves them: every class in an enum namespace or not, inverse key paths through
/// it or not, types written plainly, module-qualified (`Swift.Int`, `Foundation.Date`), through
/// a typealias or a chain of two at the top or inside the namespace, left to a literal initial
/// value; decoy types named `Date`, `Int` and `String` in a scope the classes cannot see, and a
/// `@Model` class under `#if false`.
@Suite("SwiftData sources: round trip")
struct SwiftDataSourceRoundTripTests {
    static let cases = PropertyCases.count(makeTest: 200)

    /// A Swift type, its Core Data type, and a literal of it with the default Core Data keeps.
    static let scalars: [(swift: String, type: AttributeType, literal: @Sendable (inout SplitMix64) -> (String, String))] = [
        // An escaped quote in the literal, a plain one in the value.
        ("String", .string, { rng in let number = rng.next() % 1000; return ("\"t\(number)\\\"q\"", "t\(number)\"q") }),
        ("Int", .integer64, { rng in let value = Int64(bitPattern: rng.next()) >> Int64(rng.next() % 63); return ("\(value)", "\(value)") }),
        ("Int32", .integer32, { rng in let value = Int32(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("Int16", .integer16, { rng in let value = Int16(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("Int8", .integer16, { rng in let value = Int8(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("UInt8", .integer16, { rng in let value = UInt8(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("UInt16", .integer32, { rng in let value = UInt16(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("UInt32", .integer64, { rng in let value = UInt32(truncatingIfNeeded: rng.next()); return ("\(value)", "\(value)") }),
        ("UInt", .integer64, { rng in let value = rng.next() >> 1; return ("\(value)", "\(value)") }),
        ("UInt64", .integer64, { rng in let value = rng.next() >> 1; return ("\(value)", "\(value)") }),
        ("Float", .float, { rng in let text = "\(rng.next() % 100).\(rng.next() % 10)"; return (text, text) }),
        ("TimeInterval", .double, { rng in let text = "\(rng.next() % 10_000).\(rng.next() % 100)"; return (text, text) }),
        ("CGFloat", .double, { rng in let text = "\(rng.next() % 10_000).\(rng.next() % 100)"; return (text, text) }),
        ("Double", .double, { rng in let text = "\(rng.next() % 10_000).\(rng.next() % 100)"; return (text, text) }),
        ("Bool", .boolean, { rng in rng.next() % 2 == 0 ? ("true", "YES") : ("false", "NO") }),
        ("Date", .date, { _ in ("Date()", "") }),
        ("Data", .binary, { _ in ("Data()", "") }),
        ("UUID", .uuid, { _ in ("UUID()", "") }),
        ("URL", .uri, { _ in ("URL(string: \"a\")!", "") }),
        ("Decimal", .decimal, { _ in ("Decimal()", "") }),
    ]

    @Test("a generated model written as @Model sources reads back as the same model")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var rng = SplitMix64(seed: 0x5EED_D47A)
        for index in 0..<Self.cases {
            let (source, expected) = Self.generate(&rng)
            let path = try directory.write(source, to: "case\(index)/Model.swift")
            let model: DataModel
            do {
                model = try SwiftDataModelLoader.load(from: path)
            } catch {
                Issue.record("case \(index): \(error)\n\(source)")
                return
            }
            guard Self.describe(model) == Self.describe(expected) else {
                #expect(Self.describe(model) == Self.describe(expected), "case \(index):\n\(source)")
                return
            }
            #expect(VersionHasher(model: model).entityHashes() == VersionHasher(model: expected).entityHashes())
        }
    }

    /// Every part of the model the reader decides, one line per property.
    static func describe(_ model: DataModel) -> [String] {
        model.entities.flatMap { entity in
            ["\(entity.name) unique \(entity.uniquenessConstraints)"]
                + entity.attributes.map {
                    "\(entity.name).\($0.name) \($0.type.rawValue) optional \($0.isOptional) default \($0.defaultValue ?? "-")"
                        + " elements \(($0.elements ?? []).map { "\($0.name) \($0.type.rawValue) \($0.isOptional) \($0.defaultValue ?? "-")" })"
                        + " cases \(($0.declaredValue?.cases ?? []).map { "\($0.name)=\($0.rawValue ?? "-")" })"
                }
                + entity.relationships.map {
                    "\(entity.name).\($0.name) -> \($0.destinationEntity) many \($0.isToMany) optional \($0.isOptional) inverse \($0.inverseName ?? "-") counts \($0.minCount)...\($0.maxCount) \($0.deletionRule)"
                }
        }
    }

    /// An enum with raw values (String or Int; some given, some left to Swift) and a property
    /// storing it, maybe optional, maybe starting at a case: its declaration, the property's line
    /// and the Composite attribute it declares.
    static func enumeration(named name: String, property: String, _ rng: inout SplitMix64) -> (String, (line: String, expected: AttributeDescription)) {
        let isText = rng.next() % 2 == 0
        var cases: [DeclaredValue.EnumCase] = []
        var lines: [String] = []
        var next: Int64 = 0
        for number in 0..<(Int(rng.next() % 4) + 1) {
            let caseName = "c\(number)"
            let explicit = rng.next() % 2 == 0
            if isText {
                // A given raw value with an escaped quote and a non-ASCII letter, else the name.
                let raw = explicit ? "v\(number) \"é\"" : caseName
                lines.append(explicit ? "case \(caseName) = \"v\(number) \\\"é\\\"\"" : "case \(caseName)")
                cases.append(.init(name: caseName, rawValue: raw))
            } else {
                // Given values far apart (negative too), so that Swift's own never repeat one.
                if explicit { next = Int64(number * 1000) - 1500 }
                lines.append(explicit ? "case \(caseName) = \(next)" : "case \(caseName)")
                cases.append(.init(name: caseName, rawValue: String(next)))
                next += 1
            }
        }
        let optional = rng.next() % 2 == 0
        let initial = rng.next() % 2 == 0 ? cases[Int(rng.next() % UInt64(cases.count))] : nil
        var element = AttributeDescription(name: property, type: isText ? .string : .integer64, isOptional: true, defaultValue: initial?.rawValue)
        element.line = 0
        var attribute = AttributeDescription(name: property, type: .composite, isOptional: optional)
        attribute.elements = [element]
        attribute.declaredValue = .enumeration(cases)
        let declaration = "enum \(name): \(isText ? "String" : "Int"), Codable {\n" + lines.map { "    \($0)\n" }.joined() + "}\n\n"
        let line = "    var \(property): \(name)\(optional ? "?" : "")\(initial.map { " = .\($0.name)" } ?? "")\n"
        return (declaration, (line, attribute))
    }

    /// The module a standard type may be qualified with.
    static func module(of swift: String) -> String {
        switch swift {
        case "Date", "Data", "UUID", "URL", "Decimal", "TimeInterval": "Foundation"
        case "CGFloat": "CoreGraphics"
        default: "Swift"
        }
    }

    /// Types whose literals Swift types by themselves (`= 1` is an Int): their annotation may be left out.
    static let literalTypes: [String: String] = ["String": "\"", "Int": "", "Double": ".", "Bool": ""]

    /// How a property spells `swift`: plainly, module-qualified, or through a typealias (or a
    /// chain of two) declared in `aliases`, at the top or in the namespace.
    static func spelling(of swift: String, aliases: inout [String], prefix: String, _ rng: inout SplitMix64) -> String {
        switch rng.next() % 4 {
        case 0: return "\(module(of: swift)).\(swift)"
        case 1:
            let name = "\(prefix)\(aliases.count)"
            aliases.append("typealias \(name) = \(swift)")
            return name
        case 2:
            let (first, second) = ("\(prefix)\(aliases.count)", "\(prefix)\(aliases.count + 1)")
            aliases += ["typealias \(first) = \(swift)", "typealias \(second) = \(first)"]
            return second
        default: return swift
        }
    }

    /// Sources of 1–4 classes with random attributes and explicit-inverse relationships, and the model they declare.
    static func generate(_ rng: inout SplitMix64) -> (String, DataModel) {
        let count = Int(rng.next() % 4) + 1
        let names = (0..<count).map { "E\($0)x" }
        let namespaced = rng.next() % 2 == 0
        var bodies = Array(repeating: "", count: count)
        var entities = names.map { EntityDescription(name: $0) }
        var enums = ""
        var topAliases: [String] = [], innerAliases: [String] = []
        for index in 0..<count {
            var attributes: [AttributeDescription] = []
            for number in 0..<Int(rng.next() % 5) {
                let scalar = scalars[Int(rng.next() % UInt64(scalars.count))]
                let name = "a\(number)"
                let optional = rng.next() % 3 == 0
                let withValue = rng.next() % 2 == 0
                let (literal, stored) = scalar.literal(&rng)
                let unique = !optional && rng.next() % 5 == 0
                let inferred = withValue && !optional && literalTypes[scalar.swift].map { literal.contains($0) || $0.isEmpty } == true
                    && literal.first != "-" && rng.next() % 3 == 0
                var declared = ""
                if !inferred {
                    if namespaced && rng.next() % 2 == 0 {
                        declared = ": " + spelling(of: scalar.swift, aliases: &innerAliases, prefix: "U", &rng)
                    } else {
                        declared = ": " + spelling(of: scalar.swift, aliases: &topAliases, prefix: "T", &rng)
                    }
                    declared += optional ? "?" : ""
                }
                bodies[index] += "    \(unique ? "@Attribute(.unique) " : "")var \(name)\(declared)\(withValue ? " = \(literal)" : "")\n"
                attributes.append(AttributeDescription(name: name, type: scalar.type, isOptional: optional,
                                                       defaultValue: withValue && !stored.isEmpty ? stored : nil))
                if unique { entities[index].uniquenessConstraints.append([name]) }
            }
            if rng.next() % 2 == 0 {
                let (declaration, attribute) = enumeration(named: "En\(index)", property: "e\(index)", &rng)
                enums += declaration
                bodies[index] += attribute.line
                attributes.append(attribute.expected)
            }
            entities[index].attributes = attributes.sorted { DataModel.namePrecedes($0.name, $1.name) }
        }
        // Relationships in pairs, each naming its inverse: to-one or to-many on either side.
        for pair in 0..<Int(rng.next() % 3) where count > 1 {
            let from = Int(rng.next() % UInt64(count))
            let to = (from + 1 + Int(rng.next() % UInt64(count - 1))) % count
            let (forward, backward) = ("r\(pair)", "q\(pair)")
            let manyForward = rng.next() % 2 == 0, manyBackward = rng.next() % 2 == 0
            let cascade = rng.next() % 2 == 0
            let minimum = manyForward && rng.next() % 2 == 0 ? Int(rng.next() % 3) : nil
            func type(_ target: String, many: Bool, optional: Bool) -> String { many ? "[\(target)]\(optional ? "?" : "")" : "\(target)\(optional ? "?" : "")" }
            let forwardOptional = rng.next() % 2 == 0 || !manyForward
            var arguments = ["inverse: \\\(namespaced && rng.next() % 2 == 0 ? "NS." : "")\(names[to]).\(backward)"]
            if cascade { arguments.insert("deleteRule: .cascade", at: 0) }
            if let minimum { arguments.append("minimumModelCount: \(minimum)") }
            bodies[from] += "    @Relationship(\(arguments.joined(separator: ", "))) var \(forward): \(type(names[to], many: manyForward, optional: forwardOptional))\n"
            bodies[to] += "    var \(backward): \(type(names[from], many: manyBackward, optional: true))\n"
            var outward = RelationshipDescription(name: forward, destinationEntity: names[to], inverseName: backward, inverseEntity: names[to],
                                                  isToMany: manyForward, isOptional: forwardOptional, minCount: minimum ?? 0,
                                                  deletionRule: cascade ? .cascade : .nullify)
            outward.renamingIdentifier = nil
            entities[from].relationships.append(outward)
            entities[to].relationships.append(RelationshipDescription(name: backward, destinationEntity: names[from], inverseName: forward,
                                                                      inverseEntity: names[from], isToMany: manyBackward, isOptional: true))
        }
        for index in entities.indices { entities[index].relationships.sort { DataModel.namePrecedes($0.name, $1.name) } }
        var declarations = enums + zip(names, bodies).map { "@Model final class \($0) {\n\($1)    init() {}\n}\n" }.joined(separator: "\n")
        if namespaced {
            declarations = "enum NS {\n" + (innerAliases.map { $0 + "\n" }.joined() + declarations)
                .split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") + "\n}\n"
        }
        // Decoys: types named like standard ones, in a scope no class sees; a class Swift never builds.
        let decoys = "enum Decoy {\n    struct Date {}\n    struct Int {}\n    struct String {}\n}\n#if false\n@Model final class Hidden { var h = 1 }\n#endif\n"
        let source = "import SwiftData\n\n" + topAliases.map { $0 + "\n" }.joined() + decoys + declarations
        return (source, try! DataModel(entities: entities, versionIdentifier: "1.0.0"))
    }
}
