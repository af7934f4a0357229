import Testing
import SeedStore
@testable import SeedImport

/// `PendingReferences` encodes references into byte chunks (variable-length numbers, a source
/// written only when it changes): every reference appended comes back the same, in order.
@Suite("Pending references")
struct PendingReferencesTests {
    @Test("random references, runs from one source, the largest numbers, long texts across chunks: all come back as given, in order")
    func roundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let texts = ["", "k", "Éire", "E\u{301}ire", "a\u{0}b", "🇵🇱", String(repeating: "x", count: 700_000)]
        var given: [PendingReferences.Reference] = []
        var references = PendingReferences()
        var source = ObjectReference(entity: "Player", entityNumber: 3, primaryKey: 1)
        for index in 0..<5_000 {
            if Int.random(in: 0..<4, using: &generator) == 0 {
                source = ObjectReference(entity: ["Player", "Team", "Ünïcode"].randomElement(using: &generator)!,
                                         entityNumber: Int.random(in: 1...65_535, using: &generator),
                                         primaryKey: [1, Int64.max, Int64.random(in: 1...Int64.max, using: &generator)].randomElement(using: &generator)!)
            }
            let reference = PendingReferences.Reference(
                source: source, relationship: ["team", "members", "friends"].randomElement(using: &generator)!,
                text: index % 1_500 == 0 ? texts.last! : texts.dropLast().randomElement(using: &generator)! + String(index),
                place: Bool.random(using: &generator) ? nil : [0, 1, 2048, Int.max - 1].randomElement(using: &generator)!,
                location: InputLocation(file: ["a.xml", "b.json"].randomElement(using: &generator)!,
                                        line: [1, 7, Int(UInt32.max) + 5].randomElement(using: &generator)!, column: Int.random(in: 1...300, using: &generator)))
            given.append(reference)
            references.append(reference)
        }
        var index = 0
        var firstDifference: Int?
        try references.forEach { (found) throws(InputError) in
            let expected = given[index]
            let same = found.source == expected.source && found.relationship == expected.relationship && found.place == expected.place
                && found.location == expected.location && found.text.utf8.elementsEqual(expected.text.utf8)
            if !same, firstDifference == nil { firstDifference = index }
            index += 1
        }
        #expect(firstDifference == nil, "reference \(firstDifference ?? -1): \(firstDifference.map { "\(given[$0])" } ?? "")")
        #expect(index == given.count)
        references.removeAll()
        try references.forEach { (_) throws(InputError) in Issue.record("removeAll left a reference") }
    }
}
