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
        let classes = try #require(throws: ModelError.self) { try SwiftDataModelLoader.loadVersions(from: path, schema: ["Trip"]) }
        #expect(classes.message.contains("--schema names one of its schemas (SchemaV1, SchemaV2)"), "\(classes)")
    }

    @Test("a custom migration stage is refused at its place, naming it")
    func customStage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let custom = Self.sources.replacingOccurrences(
            of: "static let v1ToV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)",
            with: "static let v1ToV2 = MigrationStage.custom(fromVersion: SchemaV1.self, toVersion: SchemaV2.self, willMigrate: nil, didMigrate: nil)")
        let error = try #require(throws: ModelError.self) { try SwiftDataModelLoader.loadVersions(from: directory.write(custom, to: "Trips.swift")) }
        #expect(error.line == 22 && error.column == 25, "\(error)")
        #expect(error.message.contains("TripPlan.v1ToV2 is a custom migration stage"), "\(error)")
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
