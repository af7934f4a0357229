import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

/// The runtime writer enforces the model's validation rules and to-many counts, as Core Data's
/// save does; a refused transaction writes nothing.
@Suite("ObjectWriter: validation rules and counts")
struct ObjectWriterRuleTests {
    @Test("a value outside the rules, or a to-many outside minCount/maxCount, is a WriteError with its reason")
    func rulesAndCounts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("""
            <entity name="Alarm">
                <attribute name="code" optional="YES" attributeType="String" regularExpressionString="[A-Z]{3}"/>
                <attribute name="repeats" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="10"/>
                <relationship name="crew" optional="YES" maxCount="1" destinationEntity="Crew" inverseName="alarms" inverseEntity="Crew"/>
            </entity>
            <entity name="Crew">
                <relationship name="alarms" optional="YES" toMany="YES" maxCount="1" destinationEntity="Alarm" inverseName="crew" inverseEntity="Alarm"/>
            </entity>
            """, in: directory)
        let path = directory.path("alarms.sqlite")
        try StoreFixture.build(model, at: path)
        let before = try StoreBuilder.sha256(ofFile: path)
        let connection = try StoreConnection(path: path, layout: try StoreLayout(model: model))
        let cases: [(WriteError.Reason, (ObjectWriter) throws -> Void)] = [
            (.invalidValue(entity: "Alarm", attribute: "repeats"), { try $0.insert("Alarm", ["repeats": .integer(11)]) }),
            (.invalidValue(entity: "Alarm", attribute: "code"), { try $0.insert("Alarm", ["code": .text("ab1")]) }),
        ]
        for (reason, block) in cases {
            let error = #expect(throws: WriteError.self) { try connection.write(block) }
            #expect(error?.reason == reason, "\(String(describing: error))")
        }
        let error = #expect(throws: WriteError.self) {
            try connection.write { writer in
                let crew = try writer.insert("Crew")
                try writer.add(crew, "alarms", try writer.insert("Alarm", ["code": .text("ABC")]))
                try writer.add(crew, "alarms", try writer.insert("Alarm", ["repeats": .integer(1)]))
            }
        }
        guard case .countOutOfRange(let crew, "alarms", 2) = error?.reason else {
            Issue.record("expected .countOutOfRange, got \(String(describing: error?.reason))")
            return
        }
        #expect(crew.entity == "Crew")
        #expect(try StoreBuilder.sha256(ofFile: path) == before, "a refused transaction writes nothing")
        try connection.write { writer in _ = try writer.insert("Alarm", ["code": .text("ABC"), "repeats": .integer(10)]) }
    }

    /// Before, `add`, `destinations` and `delete` reached a force-unwrapped inverse and crashed.
    @Test("a to-many without an inverse: add, remove and delete keep each member's one owner in its row; a second owner is refused")
    func inverselessToMany() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("""
            <entity name="Cocktail">
                <relationship name="spec" toMany="YES" minCount="1" deletionRule="Cascade" destinationEntity="Ingredient"/>
                <relationship name="garnish" optional="YES" toMany="YES" destinationEntity="Ingredient"/>
            </entity>
            <entity name="Ingredient"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """, in: directory)
        let path = directory.path("bar.sqlite")
        try StoreFixture.build(model, at: path)
        let connection = try StoreConnection(path: path, layout: try StoreLayout(model: model))
        let (daiquiri, mojito, rum, lime) = try connection.write { writer in
            let (daiquiri, mojito) = (try writer.insert("Cocktail"), try writer.insert("Cocktail"))
            let (rum, lime, mint) = (try writer.insert("Ingredient", ["name": .text("Rum")]), try writer.insert("Ingredient", ["name": .text("Lime")]),
                                     try writer.insert("Ingredient", ["name": .text("Mint")]))
            try writer.add(daiquiri, "spec", rum)
            try writer.add(daiquiri, "spec", lime)
            try writer.add(mojito, "spec", mint)
            try writer.add(mojito, "garnish", lime)  // another relationship, another column
            return (daiquiri, mojito, rum, lime)
        }
        let (spec, garnish) = try connection.write { writer in (try writer.destinations(of: daiquiri, "spec"), try writer.destinations(of: mojito, "garnish")) }
        #expect(spec == [rum, lime] && garnish == [lime])
        let owned = #expect(throws: WriteError.self) { try connection.write { try $0.add(mojito, "spec", lime) } }
        #expect(owned?.reason == .ownedElsewhere(lime, relationship: "spec"), "\(String(describing: owned))")
        let left = try connection.write { writer in
            try writer.remove(daiquiri, "spec", lime)
            try writer.add(mojito, "spec", lime)
            return try writer.destinations(of: daiquiri, "spec")
        }
        #expect(left == [rum])
        // Deleting the daiquiri's last member leaves it under its minCount: refused.
        let emptied = #expect(throws: WriteError.self) { try connection.write { try $0.delete(rum) } }
        #expect(emptied?.reason == .countOutOfRange(daiquiri, relationship: "spec", count: 0), "\(String(describing: emptied))")
        // Cascade: the mojito takes its spec (mint, lime) with it; the garnish column of lime went with lime.
        try connection.write { try $0.delete(mojito) }
        #expect(try SQLiteShell.rows(path, "SELECT ZNAME FROM ZINGREDIENT ORDER BY 1") == ["Rum"])
        let findings = try StoreVerifier(storePath: path, layout: StoreLayout(model: model)).verify().filter { !$0.isNote }
        #expect(findings.isEmpty, "\(findings)")
    }
}
