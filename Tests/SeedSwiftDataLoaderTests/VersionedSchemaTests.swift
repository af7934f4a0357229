import Foundation
import SeedModel
import SeedSwiftDataLoader
import SeedgenTestSupport
import Testing

@Suite("SwiftData versioned schemas")
struct VersionedSchemaTests {
    static let sources = """
        import SwiftData
        enum SchemaV1: VersionedSchema {
            static var versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { [Trip.self] }
            @Model final class Trip {
                @Attribute(.unique) var name: String
                init(name: String) { self.name = name }
            }
        }
        enum SchemaV2: VersionedSchema {
            static var versionIdentifier: Schema.Version { Schema.Version(2, 1, 0) }
            static var models: [any PersistentModel.Type] { return [Trip.self] }
            @Model final class Trip {
                @Attribute(.unique) var name: String
                var rating: Int = 3
                init(name: String) { self.name = name }
            }
        }
        enum TripPlan: SchemaMigrationPlan {
            static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
            static var stages: [MigrationStage] { [v1ToV2] }
            static let v1ToV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
        }
        """

    @Test("a SchemaMigrationPlan's schemas are the model's versions in order, the last current; --schema picks one")
    func versions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.sources, to: "Trips.swift")
        let versions = try SwiftDataModelLoader.loadVersions(from: path)
        #expect(versions.versions.map(\.name) == ["SchemaV1", "SchemaV2"])
        #expect(versions.versions.map(\.model.versionIdentifier) == ["1.0.0", "2.1.0"])
        #expect(versions.current.name == "SchemaV2")
        #expect(versions.current.model.entity(named: "Trip")?.attribute(named: "rating")?.defaultValue == "3")
        let first = try SwiftDataModelLoader.loadVersions(from: path, schema: ["SchemaV1"])
        #expect(first.current.name == "SchemaV1" && first.current.model.entity(named: "Trip")?.attribute(named: "rating") == nil)
        // Classes named as the app names them for its container: the plan's version they hash as.
        let classes = try SwiftDataModelLoader.loadVersions(from: path, schema: ["SchemaV2.Trip"])
        #expect(classes.current.name == "SchemaV2" && classes.versions.map(\.name) == ["SchemaV1", "SchemaV2"])
        // Seen from the module, neither nested `Trip` is in scope, as for Swift.
        let hidden = try #require(throws: ModelError.self) { try SwiftDataModelLoader.loadVersions(from: path, schema: ["Trip"]) }
        #expect(hidden.message.contains("no @Model class named 'Trip'"), "\(hidden)")
    }

    @Test("a custom migration stage is found at its place; hash and build of either version need nothing of it; migrate refuses to cross it")
    func customStage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let custom = Self.sources.replacingOccurrences(
            of: "static let v1ToV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)",
            with: "static let v1ToV2 = MigrationStage.custom(fromVersion: SchemaV1.self, toVersion: SchemaV2.self, willMigrate: nil, didMigrate: nil)")
        let path = try directory.write(custom, to: "Trips.swift")
        let versions = try SwiftDataModelLoader.loadVersions(from: path)
        #expect(versions.customStages == [.init(from: "SchemaV1", to: "SchemaV2", place: "\(path):22:25")])
        #expect(versions.customStage(from: "SchemaV1") != nil && versions.customStage(from: "SchemaV2") == nil)
        let data = try directory.write(#"{"Trips": [{"name": "Lisbon"}]}"#, to: "trips.json")
        let store = directory.path("Trips.sqlite")
        let build = try SeedgenTool.run(["build", "--model", path, "--schema", "SchemaV1", "--output", store, data])
        #expect(build.status == 0, "\(build.error)")
        let before = try SQLiteShell.rows(store, "SELECT ZNAME FROM ZTRIP")
        for arguments in [["migrate", store, "--model", path], ["migrate", store, "--model", path, "--dry-run"]] {
            let migrate = try SeedgenTool.run(arguments)
            #expect(migrate.status == 1, "\(migrate.output)\(migrate.error)")
            #expect((migrate.output + migrate.error).contains("Trips.swift:22:25"), "\(migrate.output)\(migrate.error)")
        }
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME FROM ZTRIP") == before)
        #expect(try SeedgenTool.run(["verify", store, "--model", path, "--schema", "SchemaV1"]).status == 0)
    }

    @Test("without a plan, one VersionedSchema named by --schema is the model; every class at once is two Trips, refused")
    func versionedSchemaWithoutPlan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let withoutPlan = String(Self.sources[..<Self.sources.range(of: "enum TripPlan")!.lowerBound])
        let path = try directory.write(withoutPlan, to: "Trips.swift")
        let model = try SwiftDataModelLoader.load(from: path, schema: ["SchemaV2"])
        #expect(model.versionIdentifier == "2.1.0" && model.entity(named: "Trip")?.attribute(named: "rating") != nil)
        let error = try #require(throws: ModelError.self) { try SwiftDataModelLoader.load(from: path) }
        #expect(error.message.contains("a second @Model class named 'Trip'"))
    }

    @Test("seedgen migrate brings a store of SchemaV1 to SchemaV2 from the sources' plan")
    func migrateThroughThePlan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.sources, to: "Trips.swift")
        let data = try directory.write(#"{"Trips": [{"name": "Lisbon"}, {"name": "Oslo"}]}"#, to: "trips.json")
        let store = directory.path("Trips.sqlite")
        let build = try SeedgenTool.run(["build", "--model", path, "--schema", "SchemaV1", "--output", store, data])
        #expect(build.status == 0, "\(build.error)")
        let migrate = try SeedgenTool.run(["migrate", store, "--model", path])
        #expect(migrate.status == 0, "\(migrate.output)\(migrate.error)")
        #expect(try SQLiteShell.rows(store, "SELECT ZNAME, ZRATING FROM ZTRIP ORDER BY ZNAME") == ["Lisbon|3", "Oslo|3"])
        let verify = try SeedgenTool.run(["verify", store, "--model", path])
        #expect(verify.status == 0, "\(verify.output)")
    }
}
