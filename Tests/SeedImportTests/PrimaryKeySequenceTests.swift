import Testing
@testable import SeedImport

/// `PrimaryKeySequence` keeps where each row was defined in chunks that grow as rows come:
/// every place recorded comes back, across chunk boundaries and gaps, and nothing else does.
@Suite("Primary key sequence")
struct PrimaryKeySequenceTests {
    @Test("places recorded in order, after gaps of up to several chunks and apart from their run, all come back; others are nil")
    func definitionsComeBack() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            let sequence = PrimaryKeySequence()
            var expected: [Int64: InputLocation] = [:]
            var primaryKey: Int64 = 0
            var file = "a.xml"
            for _ in 0..<Int.random(in: 1...2_000, using: &generator) {
                switch Int.random(in: 0..<100, using: &generator) {
                case 0: primaryKey += Int64.random(in: 1...200_000, using: &generator)  // past a chunk or several
                case 1..<10: primaryKey += Int64.random(in: 2...100, using: &generator)
                default: primaryKey += 1
                }
                if Int.random(in: 0..<100, using: &generator) == 0 { file = "f\(primaryKey).json" }
                let place = InputLocation(file: file, line: Int.random(in: 1...9_999, using: &generator), column: Int.random(in: 1...500, using: &generator))
                sequence.define(primaryKey, at: place)
                expected[primaryKey] = place
                // A row reserved earlier (a reference named it first) defined now, from elsewhere.
                if Int.random(in: 0..<50, using: &generator) == 0, primaryKey > 1 {
                    let earlier = Int64.random(in: 1..<primaryKey, using: &generator)
                    let apart = InputLocation(file: "apart\(earlier).plist", line: 7, column: 3)
                    sequence.define(earlier, at: apart)
                    expected[earlier] = apart
                }
            }
            let wrong = expected.filter { key, place in sequence.definition(of: key) != place }
            #expect(wrong.isEmpty, "\(wrong.count) of \(expected.count) places, for example Z_PK \(wrong.keys.min() ?? 0)")
            let others = (0..<200).map { _ in Int64.random(in: -2...(primaryKey + 70_000), using: &generator) }.filter { expected[$0] == nil }
            #expect(others.allSatisfy { sequence.definition(of: $0) == nil })
        }
    }
}
