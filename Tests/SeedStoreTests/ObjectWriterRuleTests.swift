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
}
