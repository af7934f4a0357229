/// The name a user most likely meant, for the "did you mean" of a message that names something
/// the model or the command line does not have.
package enum NameSuggestion {
    /// Names longer than this get no suggestion (the distance takes time in both lengths).
    static let longestName = 128

    /// The candidate nearest `name`, when it is near enough to be a slip: case ignored, one
    /// insertion, deletion, substitution or swap of two neighbours counting one, at most a third
    /// of the name's length apart (one for a name of up to five characters). Nil when none is,
    /// when two are equally near, or when `name` is a candidate itself.
    package static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        guard !typed.isEmpty, typed.count <= longestName else { return nil }
        let limit = max(1, typed.count / 3)
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in candidates where candidate != name {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard other.count <= longestName, abs(other.count - typed.count) <= limit else { continue }
            let distance = Self.distance(typed, other)
            guard distance <= limit else { continue }
            if let found = best, distance >= found.distance {
                if distance == found.distance, candidate != found.name { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.name
    }

    /// `; did you mean 'x'?` for the nearest candidate, or nothing.
    package static func hint(for name: String, in candidates: some Sequence<String>) -> String {
        nearest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance of `a` and `b`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
