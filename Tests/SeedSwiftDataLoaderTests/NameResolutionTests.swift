import Foundation
import SeedModel
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

/// Minimal models of our own, one construct each, read as the Swift compiler resolves names
/// and as SwiftData stores types (SwiftDataModels.md).
@Suite("SwiftData names and types, as Swift resolves them")
struct NameResolutionTests {
    private func type(_ model: DataModel, _ entity: String, _ attribute: String) -> String? {
        model.entity(named: entity)?.attribute(named: attribute).map { $0.type.rawValue + ($0.isOptional ? "?" : "") }
    }

    @Test("key paths through a namespace, typealiases at any level and through chains, --schema a typealias")
    func namespacesAndAliases() throws {
        let source = """
            typealias ID = String
            typealias Identifier = ID
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Parent.self] }
                @Model final class Parent {
                    var id: Identifier
                    @Relationship(inverse: \\SchemaV1.Child.parent) var children: [Child]
                }
                @Model final class Child { var parent: Parent? }
            }
            typealias Current = SchemaV1
            typealias Card = SchemaV1.Parent
            """
        let model = try load(source, schema: ["Current"])
        #expect(model.entities.map(\.name).sorted() == ["Child", "Parent"])
        #expect(type(model, "Parent", "id") == "String")
        #expect(model.entity(named: "Child")?.relationships.first?.inverseName == "children")
        #expect(try load(source, schema: ["Card"]).entities.map(\.name).sorted() == ["Child", "Parent"])
    }

    @Test("the innermost scope wins: each schema's own nested type; a standard type shadowed only where Swift finds the source's first")
    func scopes() throws {
        let model = try load("""
            enum SchemaV1 {
                enum Diet: String, Codable { case seeds }
                @Model final class Animal { var diet: Diet; var createdAt: Date }
            }
            enum SchemaV2 {
                enum Diet: Int, Codable { case seeds }
                @Model final class Animal { var diet: Diet }
                @Model final class Date { var day = 1 }
            }
            """, schema: ["SchemaV1.Animal"])
        let animal = try #require(model.entity(named: "Animal"))
        #expect(animal.attribute(named: "diet")?.elements?.first?.type == .string, "SchemaV1's own Diet")
        #expect(animal.attribute(named: "createdAt")?.type == .date, "Foundation's Date: SchemaV2.Date is not in scope")
        #expect(animal.relationships.isEmpty && model.entities.count == 1)
        // Inside SchemaV2 the nested class shadows Foundation's Date.
        let shadowed = try load("""
            enum SchemaV2 {
                @Model final class Animal { var born: Date? }
                @Model final class Date { var day = 1 }
            }
            """, schema: ["SchemaV2.Animal"])
        #expect(shadowed.entity(named: "Animal")?.relationships.map(\.name) == ["born"])
    }

    @Test("every standard type SwiftData stores: integers of every width, TimeInterval, CGFloat, Decimal, URL, inside structs too")
    func standardTypes() throws {
        let model = try load("""
            struct Size: Codable { var width: CGFloat; var duration: TimeInterval? }
            @Model final class Item {
                var a: Int8; var b: Int16; var c: Int32; var d: Int64; var e: UInt; var f: UInt8
                var g: UInt16; var h: UInt32; var i: UInt64; var j: TimeInterval; var k: CGFloat
                var l: Decimal; var m: URL; var n: Foundation.Date; var o: Swift.Int?; var size: Size
            }
            """)
        let expected: [(String, String)] = [
            ("a", "Integer 16"), ("b", "Integer 16"), ("c", "Integer 32"), ("d", "Integer 64"), ("e", "Integer 64"),
            ("f", "Integer 16"), ("g", "Integer 32"), ("h", "Integer 64"), ("i", "Integer 64"), ("j", "Double"),
            ("k", "Double"), ("l", "Decimal"), ("m", "URI"), ("n", "Date"), ("o", "Integer 64?"),
        ]
        for (name, kind) in expected { #expect(type(model, "Item", name) == kind, "\(name)") }
        #expect(model.entity(named: "Item")?.attribute(named: "size")?.elements?.map { "\($0.name):\($0.type.rawValue)" } == ["width:Double", "duration:Double"])
    }

    @Test("types given by the initial value alone: literals, Type.member, Type(), [T](), Array<T>(), [K: V](), Date(), UUID()")
    func initialValues() throws {
        let model = try load("""
            enum Provider: String, Codable { case local, cloud; static let preferred = Provider.cloud }
            struct Box: Codable { var x = 0 }
            @Model final class Item {
                var provider = Provider.local
                var other = Provider.preferred
                var tags = [String]()
                var counts = Array<Int>()
                var made = Date()
                var seen = Date.now
                var id = UUID()
                var ratio = 0.8
                var box = Box()
                var set = Set<String>()
                var map = [String: Int]()
            }
            """)
        #expect(type(model, "Item", "provider") == "Composite" && type(model, "Item", "other") == "Composite")
        #expect(model.entity(named: "Item")?.attribute(named: "provider")?.elements?.first?.defaultValue == "local")
        #expect(type(model, "Item", "tags") == "Transformable" && type(model, "Item", "counts") == "Transformable")
        #expect(type(model, "Item", "made") == "Date" && type(model, "Item", "seen") == "Date" && type(model, "Item", "id") == "UUID")
        #expect(type(model, "Item", "ratio") == "Double" && type(model, "Item", "box") == "Composite")
        #expect(type(model, "Item", "set") == "Transformable" && type(model, "Item", "map") == "Transformable")
    }

    @Test("#if: a known branch is read, #if false holds no entity; DEBUG is off; an unknown one around stored properties is refused")
    func conditionalCompilation() throws {
        let model = try load("""
            #if false
            @Model final class Hidden { var a = 1 }
            #endif
            #if DEBUG
            @Model final class Debug { var a = 1 }
            #else
            @Model final class Shown {
                #if canImport(SwiftData)
                var b = 1
                #endif
            }
            #endif
            """)
        #expect(model.entities.map(\.name) == ["Shown"])
        #expect(model.entity(named: "Shown")?.attribute(named: "b") != nil)
        let either = try refusal("#if os(iOS)\n@Model final class A { var a = 1 }\n#else\n@Model final class A { var b = 1 }\n#endif\n")
        #expect(either.line == 2 && either.message.contains("`#if os(iOS)`"), "\(either)")
    }

    @Test("names SwiftData accepts are accepted; reserved, bookkeeping and case-twin names are refused at their place")
    func names() throws {
        let model = try load("@Model final class `Order` { var _channelName: String?; var isDeleted = false }")
        #expect(model.entity(named: "Order")?.attribute(named: "_channelName") != nil)
        for (source, column, rule) in [
            ("@Model final class A {\n    var description = \"\"\n}", 9, "'description' is reserved"),
            ("@Model final class A {\n    var hash = 1\n}", 9, "'hash' is reserved"),
            ("@Model final class A {\n    var objectID = 1\n}", 9, "'objectID' is reserved"),
            ("@Model final class A {\n    var _pk = 1\n}", 9, "bookkeeping"),
            ("@Model final class A {\n    var name = \"\"; var Name = \"\"\n}", 24, "differ only in case"),
        ] {
            let error = try refusal(source)
            #expect(error.file == "Model.swift" && error.line == 2 && error.column == column && error.message.contains(rule), "\(error)")
        }
    }

    @Test("#Unique and .unique on one property are one constraint, and the store builds")
    func uniqueOnce() throws {
        let model = try load("@Model final class Book {\n    #Unique<Book>([\\.id])\n    @Attribute(.unique) var id: String\n}")
        #expect(model.entity(named: "Book")?.uniquenessConstraints == [["id"]])
    }

    @Test("a plan is found whatever its conformance carries; a custom stage made by an extension function is found")
    func plansAndStages() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("""
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Trip.self] }
                @Model final class Trip { var name = "" }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Trip.self] }
                @Model final class Trip { var name = ""; var lazy var broken: Int }
            }
            enum Plan: @preconcurrency SwiftData.SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                static var stages: [MigrationStage] { [.migrateV1ToV2()] }
            }
            extension MigrationStage {
                static func migrateV1ToV2() -> MigrationStage {
                    .custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil, didMigrate: nil)
                }
            }
            """, to: "Model.swift")
        // V2 does not parse as Swift would (`var lazy var`), so it is refused alone: here as a
        // syntax error of the file, which no version can step over.
        #expect(throws: ModelError.self) { try SwiftDataModelLoader.loadVersions(from: path, schema: ["V1"]) }
        let fixed = try directory.write(String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "var lazy var broken: Int", with: "lazy var broken: Int = 0"), to: "Model.swift")
        let v1 = try SwiftDataModelLoader.loadVersions(from: fixed, schema: ["V1"])
        #expect(v1.current.name == "V1" && v1.versions.map(\.name) == ["V1"], "V2 is unreadable: \(v1.unreadable)")
        #expect(v1.unreadable.map(\.name) == ["V2"] && v1.unreadable.first?.reason.contains("lazy") == true)
        #expect(v1.customStages.map { "\($0.from ?? "?")>\($0.to ?? "?")" } == ["V1>V2"])
        #expect(v1.customStages.first?.place.hasSuffix("Model.swift:17:9") == true, "\(v1.customStages)")
        let v2 = try #require(throws: ModelError.self) { try SwiftDataModelLoader.loadVersions(from: fixed) }
        #expect(v2.line == 9 && v2.message.contains("lazy"), "\(v2)")
    }
}
