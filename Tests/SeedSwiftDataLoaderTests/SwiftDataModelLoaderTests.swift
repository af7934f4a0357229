import Foundation
import SeedModel
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

@Suite("SwiftData model sources")
struct SwiftDataModelLoaderTests {
    @Test("stored properties become attributes of their Core Data types; computed, static and @Transient ones do not")
    func attributes() throws {
        let model = try load("""
            import SwiftData
            @Model final class Trip {
                var name: String
                var note: String?
                var count: Int = 3
                var small: Int16
                var rate = -1.5
                var flag = true
                var start: Date
                var photo: Data?
                let id = UUID()
                var link: URL?
                var price: Foundation.Decimal
                var label = "a \\"b\\""
                var a, b: Int32
                @Transient var cache: Int = 0
                var twice: Int { count * 2 }
                static var shared = 1
                var observed: Int = 0 { didSet { print(observed) } }
                init() {}
            }
            """)
        let trip = try #require(model.entity(named: "Trip"))
        let described = trip.attributes.map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")=\($0.defaultValue ?? "-")" }
        #expect(described == [
            "a:Integer 32=-", "b:Integer 32=-", "count:Integer 64=3", "flag:Boolean=YES", "id:UUID=-",
            "label:String=a \"b\"", "link:URI?=-", "name:String=-", "note:String?=-", "observed:Integer 64=0",
            "photo:Binary?=-", "price:Decimal=-", "rate:Double=-1.5", "small:Integer 16=-", "start:Date=-",
        ])
        #expect(trip.relationships.isEmpty && model.versionIdentifier == "1.0.0")
    }

    @Test("@Attribute's options, #Unique and #Index")
    func attributeOptions() throws {
        let model = try load("""
            @Model class Place {
                #Unique<Place>([\\.code], [\\.city, \\.name])
                #Index<Place>([\\.name], [\\.city, \\.name])
                @Attribute(.unique) var code: String
                @Attribute(originalName: "title", hashModifier: "2") var name: String
                var city: String
                @Attribute(.externalStorage, .preserveValueOnDeletion) var map: Data
                @Attribute(.ephemeral) var seen: Bool = false
                @Attribute(.spotlight, .allowsCloudEncryption) var note: String?
            }
            """)
        let place = try #require(model.entity(named: "Place"))
        // Neither option is in the version hash (Apple: only the name and the optional,
        // transient and read-only flags of a property are) nor in the store.
        #expect(place.attribute(named: "note").map { VersionHasher.hash(of: $0) } == VersionHasher.hash(of: AttributeDescription(name: "note", type: .string, isOptional: true)))
        // `#Unique([\.code])` and `@Attribute(.unique)` on `code` are one constraint (assumed:
        // Core Data keeps a constraint once; twice would be two UNIQUE indexes of one name).
        #expect(place.uniquenessConstraints == [["code"], ["city", "name"]])
        #expect(place.fetchIndexes.map(\.name) == ["SwiftDataIndexOnBinaryname", "SwiftDataIndexOnBinarycityname"])
        #expect(place.fetchIndexes[1].elements.map(\.property) == ["city", "name"])
        let name = try #require(place.attribute(named: "name"))
        #expect(name.renamingIdentifier == "title" && name.versionHashModifier == "2")
        let map = try #require(place.attribute(named: "map"))
        #expect(map.allowsExternalBinaryDataStorage && map.preserveAfterDeletion)
        #expect(place.attribute(named: "seen")?.isTransient == true)
    }

    @Test("relationships: inverses declared or inferred (one property each way), delete rules and counts")
    func relationships() throws {
        let model = try load("""
            @Model class Recipe {
                @Relationship(deleteRule: .cascade, inverse: \\Step.recipe) var steps: [Step] = []
                var author: Cook?
                var photo: Photo?
                @Relationship(minimumModelCount: 1, maximumModelCount: 3) var tags: [Tag]?
            }
            @Model class Step { var recipe: Recipe? }
            @Model class Cook { var recipes: [Recipe] }
            @Model class Photo { var caption: String = "" }
            @Model class Tag { var name: String = "" }
            """)
        let recipe = try #require(model.entity(named: "Recipe"))
        let steps = try #require(recipe.relationship(named: "steps"))
        #expect(steps.isToMany && !steps.isOptional && steps.deletionRule == .cascade && steps.inverseName == "recipe")
        #expect(model.entity(named: "Step")?.relationship(named: "recipe")?.inverseName == "steps")
        #expect(recipe.relationship(named: "author")?.inverseName == "recipes")
        #expect(model.entity(named: "Cook")?.relationship(named: "recipes")?.inverseName == "author")
        #expect(recipe.relationship(named: "photo")?.inverseName == nil)
        let tags = try #require(recipe.relationship(named: "tags"))
        #expect(tags.isOptional && tags.minCount == 1 && tags.maxCount == 3 && tags.inverseName == nil)
    }

    @Test("--schema takes the named classes and those they reach, and nothing else")
    func schemaSelection() throws {
        let source = """
            enum SchemaV1 { @Model class Note { var body: String = ""; var folder: Folder? } }
            @Model class Folder { var notes: [SchemaV1.Note] = [] }
            @Model class Unused { var x: Int = 0 }
            """
        #expect(try load(source, schema: ["Folder"]).entities.map(\.name) == ["Folder", "Note"])
        #expect(try load(source, schema: ["SchemaV1.Note"]).entities.map(\.name) == ["Folder", "Note"])
        #expect(try load(source).entities.map(\.name) == ["Folder", "Note", "Unused"])
        #expect(try refusal(source, schema: ["Nope"]).message.contains("no @Model class named 'Nope'"))
    }

    @Test("structs and enums of the sources become Composites as SwiftData stores them")
    func composites() throws {
        let model = try load("""
            enum Mood: String, Codable { case calm, loud }
            enum Level: Int, Codable { case low = 1, high }
            enum Weather: Codable { case sun, rain }
            struct Address: Codable { var street: String; var number: Int?; var lines: [String]; var at = UUID() }
            @Model class Visit {
                var mood: Mood
                var level: Level?
                var weather: Weather
                var address: Address
                var previous: Address?
                var tags: [String]?
                var moods: [Mood] = []
            }
            """)
        let visit = try #require(model.entity(named: "Visit"))
        func elements(_ name: String) -> [String] {
            (visit.attribute(named: name)?.elements ?? []).map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" }
        }
        #expect(visit.attribute(named: "mood")?.type == .composite)
        #expect(elements("mood") == ["mood:String?"])
        #expect(elements("level") == ["level:Integer 64?"])
        #expect(elements("weather") == ["sun:String?", "rain:String?"])
        #expect(elements("address") == ["street:String", "number:Integer 64?", "lines:Binary", "at:UUID"])
        #expect(elements("previous") == ["street:String?", "number:Integer 64?", "lines:Binary?", "at:UUID?"])
        #expect(visit.attribute(named: "tags")?.type == .transformable && visit.attribute(named: "tags")?.isOptional == true)
        #expect(visit.attribute(named: "moods")?.type == .transformable)
        // What source data may give: the enums' cases, and which elements hold JSON.
        #expect(visit.attribute(named: "mood")?.declaredValue == .enumeration([.init(name: "calm", rawValue: "calm"), .init(name: "loud", rawValue: "loud")]))
        #expect(visit.attribute(named: "weather")?.declaredValue == .enumeration([.init(name: "sun"), .init(name: "rain")]))
        #expect(visit.attribute(named: "address")?.declaredValue == nil)
        #expect(visit.attribute(named: "address")?.elements?.map(\.declaredValue) == [nil, nil, .jsonArray, nil])
    }

    @Test("an enum's raw values as Swift gives them: the literal, else the case's name or one more than the case before")
    func rawValues() throws {
        let model = try load("""
            enum Step: Int, Codable { case first, jump = 10, next, back = -2, after }
            enum Word: String, Codable { case plain, `class`, spaced = "with space" }
            enum Big: Int64, Codable { case hex = 0x10, next }
            @Model class Plan { var step: Step; var word: Word; var big: Big }
            """)
        let plan = try #require(model.entity(named: "Plan"))
        func raw(_ name: String) -> [String] {
            (plan.attribute(named: name)?.declaredValue?.cases ?? []).map { "\($0.name)=\($0.rawValue ?? "-")" }
        }
        #expect(raw("step") == ["first=0", "jump=10", "next=11", "back=-2", "after=-1"])
        #expect(raw("word") == ["plain=plain", "class=class", "spaced=with space"])
        #expect(raw("big") == ["hex=16", "next=17"])
        // The model a seed carries reads back with them.
        let json = model.json()
        #expect(try DataModel(json: json, source: "seed").entity(named: "Plan")?.attribute(named: "step")?.declaredValue == plan.attribute(named: "step")?.declaredValue)
    }

    @Test("a Composite's hash is SHA-256 over its elements' hashes in name order, nothing of its own")
    func compositeHash() throws {
        let model = try load("""
            struct Pair: Codable { var b: String; var a: Int }
            @Model class Holder { var pair: Pair }
            """)
        let pair = try #require(model.entity(named: "Holder")?.attribute(named: "pair"))
        let a = AttributeDescription(name: "a", type: .integer64), b = AttributeDescription(name: "b", type: .string)
        let expected = SHA256.hash(data: VersionHasher.hash(of: a) + VersionHasher.hash(of: b))
        #expect(VersionHasher.hash(of: pair) == Array(expected))
        var renamed = pair
        renamed.name = "other"
        #expect(VersionHasher.hash(of: renamed) == VersionHasher.hash(of: pair))
    }

    @Test("what is not understood is refused at its file, line and column", arguments: [
        ("@Model class A {\n    var s: (Int, Int)\n}", 2, 12, "'(Int, Int)': SwiftData stores no such type"),
        ("@Model class A {\n    @Attribute(hashModifier: version) var s: String\n}", 2, 30, "is not a string literal"),
        ("@Model class A {\n    @Attribute(.transformable(by: T.self)) var s: String\n}", 2, 16, "the app's ValueTransformer"),
        ("@Model class A {\n    lazy var s: String = \"\"\n}", 2, 5, "lazy"),
        ("@Model class A {\n    var s = make()\n}", 2, 13, "has no type annotation"),
        ("@Model class A {\n    var s = .distantPast\n}", 2, 13, "has no type annotation"),
        ("@Model class A {\n    var s = []\n}", 2, 13, "has no type annotation"),
        ("@Model class A {\n    var s: String = \n}\n}", 2, 21, "does not parse"),
        ("@Model class A {\n    var b: B\n}\n@Model class B {\n    var a1: A?\n    var a2: A?\n}", 2, 9, "which of A.b, B.a1, B.a2"),
        ("@Model class A {\n    var f: FamilyActivitySelection\n}", 2, 12, "'FamilyActivitySelection' is neither a type of these sources"),
        ("struct S { var t: (Int, Int) }\n@Model class A {\n    var s: S\n}", 1, 19, "SwiftData stores no such type"),
        ("@Model class A {\n    #if os(iOS)\n    var phone = 1\n    #endif\n}", 2, 5, "#if os(iOS)"),
        ("let base = 3\nenum E: Int, Codable {\n    case a = base\n}\n@Model class A { var e: E }", 3, 10, "the raw value of 'E.a' is not a literal"),
        ("enum E: Double, Codable {\n    case a = 1.5, b\n}\n@Model class A { var e: E }", 2, 19, "follows one that is no whole number"),
        ("enum E: String, Codable { case a }\n@Model class A {\n    var e: E = .b\n}", 3, 9, "'e' starts as '.b', which is no case or static member of its enum"),
    ])
    func refusals(source: String, line: Int, column: Int, message: String) throws {
        let error = try refusal(source)
        #expect(error.file == "Model.swift")
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("Model.swift:\(line):\(column): "))
    }

    @Test("two classes of one name are refused unless --schema chooses")
    func twinClasses() throws {
        let source = "enum V1 { @Model class Trip { var a = 1 } }\nenum V2 { @Model class Trip { var b = 1 } }"
        let error = try refusal(source)
        #expect(error.line == 2 && error.message.contains("a second @Model class named 'Trip'"))
        #expect(try load(source, schema: ["V2.Trip"]).entity(named: "Trip")?.attribute(named: "b") != nil)
        // Seen from the module, neither `Trip` is in scope: Swift would not find one.
        #expect(try refusal(source, schema: ["Trip"]).message.contains("no @Model class named 'Trip'"))
    }

    @Test("a folder is read whole, build folders and hidden ones left out; other paths are refused")
    func folders() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for folder in ["App/Model", "App/.build/x", "App/.hidden"] {
            try FileManager.default.createDirectory(atPath: directory.path(folder), withIntermediateDirectories: true)
        }
        _ = try directory.write("@Model class B { var a: A? }", to: "App/Model/B.swift")
        _ = try directory.write("@Model class A { var bs: [B] = [] }", to: "App/A.swift")
        _ = try directory.write("@Model class Junk { var x = 1 }", to: "App/.build/x/Junk.swift")
        _ = try directory.write("@Model class Hidden { var x = 1 }", to: "App/.hidden/Hidden.swift")
        _ = try directory.write("not swift", to: "App/notes.txt")
        // Links back up the tree: each folder is read once, however many ways lead to it.
        for name in ["loop1", "loop2"] {
            try FileManager.default.createSymbolicLink(atPath: directory.path("App/Model/\(name)"), withDestinationPath: directory.path("App"))
        }
        let model = try SwiftDataModelLoader.load(from: directory.path("App"))
        #expect(model.entities.map(\.name) == ["A", "B"])
        #expect(model.entity(named: "A")?.relationship(named: "bs")?.inverseName == "a")
        #expect(ModelSource(path: directory.path("App")) == .swiftSources)
        #expect(ModelSource(path: directory.path("App/A.swift")) == .swiftSources)
        #expect(ModelSource(path: directory.path("App/notes.txt")) == .coreDataModel)
        #expect(throws: ModelError.self) { try SwiftDataModelLoader.load(from: directory.path("App/notes.txt")) }
        try FileManager.default.createDirectory(atPath: directory.path("Empty"), withIntermediateDirectories: true)
        let empty = try #require(throws: ModelError.self) { try SwiftDataModelLoader.load(from: directory.path("Empty")) }
        #expect(empty.message.contains("no .swift file"))
    }
}
