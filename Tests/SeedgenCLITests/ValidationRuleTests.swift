import Foundation
import SeedgenTestSupport
import Testing

/// The model's validation rules are enforced at build, as Core Data enforces them on save: a
/// store that breaks them would build, and the app's first save would fail.
@Suite("Validation rules at build")
struct ValidationRuleTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Alarm">
            <attribute name="code" optional="YES" attributeType="String" minValueString="3" maxValueString="3" regularExpressionString="[A-Z]+"/>
            <attribute name="price" optional="YES" attributeType="Decimal" minValueString="0"/>
            <attribute name="repeats" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="10"/>
            <attribute name="when" optional="YES" attributeType="Date" minDateTimeInterval="0" minValueString="2001-01-01"/>
            <relationship name="crew" optional="YES" maxCount="1" destinationEntity="Crew" inverseName="alarms" inverseEntity="Crew"/>
        </entity>
        <entity name="Crew">
            <attribute name="name" attributeType="String"/>
            <relationship name="alarms" optional="YES" toMany="YES" minCount="1" maxCount="2" destinationEntity="Alarm" inverseName="crew" inverseEntity="Alarm"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        </model>
        """

    /// Builds `input` (line 2 holds the object under test); returns the run.
    static func build(_ input: String, in directory: TemporaryDirectory) throws -> (SeedgenTool.Result, input: String, output: String) {
        try directory.write(model, to: "Alarms.xcdatamodel/contents")
        let path = try directory.write(input, to: "alarms.xml")
        let output = directory.path("alarms.sqlite")
        return (try SeedgenTool.run(["build", "--model", directory.path("Alarms.xcdatamodel"), "--output", output, path]), path, output)
    }

    @Test("values within the rules build, and the store verifies")
    func withinTheRules() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (result, _, output) = try Self.build("""
            <Alarms>
            <Alarm code="ABC" price="9.5" repeats="10" when="2001-01-01T00:00:00Z"/>
            <Crew name="Day"><alarms><Alarm repeats="0"/><Alarm code="XYZ"/></alarms></Crew>
            </Alarms>
            """, in: directory)
        #expect(result.status == 0, "\(result)")
        #expect(try SeedgenTool.run(["verify", output, "--model", directory.path("Alarms.xcdatamodel")]).status == 0)
    }

    @Test("a value that breaks a rule, or a to-many outside minCount/maxCount: exit 1, file:line:column, entity, attribute and rule; nothing written", arguments: [
        (#"<Alarm repeats="-1"/>"#, "Alarm.repeats: -1 is less than the model's minimum 0 (minValueString)"),
        (#"<Alarm repeats="11"/>"#, "Alarm.repeats: 11 is more than the model's maximum 10 (maxValueString)"),
        (#"<Alarm price="-0.01"/>"#, "Alarm.price: -0.01 is less than the model's minimum 0 (minValueString)"),
        (#"<Alarm code="AB"/>"#, "Alarm.code: its length 2 is less than the model's minimum length 3 (minValueString)"),
        (#"<Alarm code="ABCD"/>"#, "Alarm.code: its length 4 is more than the model's maximum length 3 (maxValueString)"),
        (#"<Alarm code="AbC"/>"#, "Alarm.code: it does not match the model's regularExpressionString '[A-Z]+'"),
        (#"<Alarm when="2000-12-31T23:59:59Z"/>"#, "Alarm.when: 2000-12-31T23:59:59Z is less than the model's minimum 2001-01-01T00:00:00Z (minDateTimeInterval)"),
        (#"<Crew name="Night"><alarms><Alarm/><Alarm/><Alarm/></alarms></Crew>"#, "Crew #1: alarms has 3 object(s); the model allows 1...2 (minCount/maxCount)"),
    ])
    func breaksARule(_ element: String, _ message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (result, input, output) = try Self.build("<Alarms>\n\(element)\n</Alarms>\n", in: directory)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("\(input):2:"), "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a rule the model cannot hold (a bound that is not a number) is an error at the model line")
    func badRule() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Self.model.replacingOccurrences(of: #"maxValueString="10""#, with: #"maxValueString="ten""#), to: "Alarms.xcdatamodel/contents")
        let input = try directory.write("<Alarms>\n<Alarm/>\n</Alarms>\n", to: "alarms.xml")
        let result = try SeedgenTool.run(["build", "--model", directory.path("Alarms.xcdatamodel"), "--output", directory.path("out.sqlite"), input])
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("contents:6:") && result.error.contains("maxValueString 'ten' is not a number"), "\(result.error)")
    }
}
