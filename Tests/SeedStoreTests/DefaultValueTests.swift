import Foundation
import SeedModel
import SeedModelLoader
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Model default values")
struct DefaultValueTests {
    func attribute(_ type: AttributeType, _ text: String?) -> AttributeDescription {
        AttributeDescription(name: "a", type: type, isOptional: true, defaultValue: text)
    }

    @Test("each type's default as its column stores it; a bad one is an error")
    func storedDefaults() throws {
        #expect(try attribute(.integer16, " 42 ").storedDefaultValue() == .integer(42))
        #expect(try attribute(.double, "0.5").storedDefaultValue() == .real(0.5))
        #expect(try attribute(.float, "0.1").storedDefaultValue() == .real(Double(Float(0.1))))
        #expect(try attribute(.boolean, "YES").storedDefaultValue() == .integer(1))
        #expect(try attribute(.boolean, "false").storedDefaultValue() == .integer(0))
        #expect(try attribute(.date, "60.5").storedDefaultValue() == .real(60.5))
        #expect(try attribute(.string, " x ").storedDefaultValue() == .text(" x "))
        #expect(try attribute(.string, nil).storedDefaultValue() == nil)
        #expect(try attribute(.uuid, "00000000-0000-0000-0000-000000000001").storedDefaultValue() == .blob(Array(repeating: 0, count: 15) + [1]))
        #expect(throws: DefaultValueError.self) { try attribute(.integer16, "70000").storedDefaultValue() }
        // An Integer default that is no integer reads as Foundation's longLongValue reads it, said in a warning.
        #expect(try attribute(.integer32, "NO").storedDefaultValue() == .integer(0))
        #expect(attribute(.integer32, "NO").defaultValueReading?.contains("read as 0") == true)
        #expect(try attribute(.integer64, "-12abc").storedDefaultValue() == .integer(-12))
        #expect(attribute(.integer16, "12").defaultValueReading == nil)
        #expect(throws: DefaultValueError.self) { try attribute(.integer16, "99999 bottles").storedDefaultValue() }
        #expect(throws: DefaultValueError.self) { try attribute(.boolean, "maybe").storedDefaultValue() }
        #expect(throws: DefaultValueError.self) { try attribute(.date, "2012-06-08").storedDefaultValue() }
    }
}
