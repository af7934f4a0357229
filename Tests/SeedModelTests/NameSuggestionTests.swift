import SeedModel
import SeedgenTestSupport
import Testing

/// "Did you mean": the nearest name is suggested for a slip, and only for a slip.
@Suite("NameSuggestion")
struct NameSuggestionTests {
    @Test("one slip of a name is suggested: a letter left out, added, changed, two swapped, the case", arguments: [
        ("nmae", "name"), ("nam", "name"), ("namee", "name"), ("nane", "name"), ("Name", "name"),
        ("Prodcts", "Products"), ("releaseDte", "releaseDate"), ("@releasedate", "@releaseDate"),
    ])
    func slips(_ typed: String, _ meant: String) {
        #expect(NameSuggestion.nearest(to: typed, in: ["name", "Products", "releaseDate", "@releaseDate", "price", "maker"]) == meant)
    }

    @Test("no suggestion for a name far from every candidate, one as near to two, the name itself, or a hostile length")
    func noSuggestion() {
        #expect(NameSuggestion.nearest(to: "colour", in: ["name", "price"]) == nil)
        #expect(NameSuggestion.nearest(to: "ab", in: ["ax", "xb"]) == nil, "two at one edit")
        #expect(NameSuggestion.nearest(to: "name", in: ["name"]) == nil)
        #expect(NameSuggestion.nearest(to: String(repeating: "a", count: 100_000), in: [String(repeating: "a", count: 99_999)]) == nil)
        #expect(NameSuggestion.nearest(to: "", in: ["a"]) == nil)
        #expect(NameSuggestion.hint(for: "colour", in: ["color"]) == "; did you mean 'color'?")
        #expect(NameSuggestion.hint(for: "x", in: ["name"]) == "")
    }

    /// The distance by its definition: the fewest insertions, deletions, substitutions and swaps
    /// of neighbours, case ignored, by a search over every edit (small alphabet and lengths).
    static func bruteDistance(_ a: String, _ b: String) -> Int {
        var seen: Set<String> = [a.lowercased()]
        var frontier = [a.lowercased()]
        let target = b.lowercased()
        for steps in 0... {
            if frontier.contains(target) { return steps }
            var next: [String] = []
            for word in frontier {
                let letters = Array(word)
                var edits: [[Character]] = []
                for i in 0...letters.count {
                    for letter in "abc" { edits.append(Array(letters[..<i]) + [letter] + Array(letters[i...])) }
                    guard i < letters.count else { continue }
                    edits.append(Array(letters[..<i]) + Array(letters[(i + 1)...]))
                    for letter in "abc" { var changed = letters; changed[i] = letter; edits.append(changed) }
                    if i + 1 < letters.count { var swapped = letters; swapped.swapAt(i, i + 1); edits.append(swapped) }
                }
                for edit in edits.map({ String($0) }) where edit.count <= 6 && seen.insert(edit).inserted { next.append(edit) }
            }
            frontier = next
        }
        return -1
    }

    @Test("random names of a, b, c: the suggestion is the one candidate at the least distance within the limit, by brute force")
    func againstBruteForce() {
        var random = SplitMix64(seed: 0x5_1ee_d1d)
        func word() -> String { String((0..<Int(1 + random.next() % 4)).map { _ in Array("abcABC")[Int(random.next() % 6)] }) }
        for _ in 0..<60 {
            let typed = word()
            let candidates = Array(Set((0..<Int(1 + random.next() % 4)).map { _ in word() })).sorted()
            let limit = max(1, typed.count / 3)
            let distances = candidates.filter { $0 != typed }.map { ($0, Self.bruteDistance(typed, $0)) }
            let least = distances.map(\.1).min()
            let nearest = distances.filter { $0.1 == least && $0.1 <= limit }.map(\.0)
            let expected: String? = nearest.count == 1 ? nearest[0] : nil
            #expect(NameSuggestion.nearest(to: typed, in: candidates) == expected, "\(typed) among \(candidates)")
        }
    }
}
