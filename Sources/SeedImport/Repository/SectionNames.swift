import SeedModel

/// Which entity a property list's section names: the entity's own name, its English plural
/// (`Groups`, `Matches`, `Categories`, `People`, `Leaves`, `Analyses`), or a name mapped
/// explicitly (`--section Staff=Person`, `ImportOptions.sectionNames`), which wins.
package struct SectionNames {
    private let entities: [String: [String]]
    private let modelNames: [String]

    init(model: DataModel, explicit: [String: String]) {
        var entities: [String: [String]] = [:]
        let concrete = model.entities.map(\.name)
        for name in concrete {
            for form in Set([name] + Self.plurals(of: name)) { entities[form, default: []].append(name) }
        }
        // The entity's own name wins over another entity's plural of the same spelling.
        for name in concrete { entities[name] = [name] }
        for (section, entity) in explicit { entities[section] = [entity] }
        self.entities = entities
        self.modelNames = concrete
    }

    /// The entity named by `section`.
    func entity(for section: String, at location: InputLocation) throws(InputError) -> String {
        guard let names = entities[section] else {
            let hint = NameSuggestion.hint(for: section, in: entities.keys.sorted())
            let map = hint.isEmpty ? "; map it with" : "\(hint) Or map it with"
            throw InputError("section '\(section)' names no entity of the model (\(modelNames.joined(separator: ", ")))\(map) --section \(section)=Entity", at: location)
        }
        guard names.count == 1 else {
            throw InputError("section '\(section)' may name \(names.sorted().joined(separator: " or ")); say which with --section \(section)=Entity", at: location)
        }
        return names[0]
    }

    /// The plural forms accepted for an entity name: the English plural of its last word
    /// (`LineItem` -> `LineItems`), and the plain `+s`/`+es` that earlier seedgen accepted.
    static func plurals(of name: String) -> [String] {
        // The last word of a CamelCase name: from its last upper-case letter.
        let split = name.lastIndex(where: \.isUppercase) ?? name.startIndex
        let (head, word) = (String(name[..<split]), String(name[split...]))
        return [head + plural(of: word), name + "s", name + "es"]
    }

    /// English plural of one word, its first letter's case kept.
    package static func plural(of word: String) -> String {
        let lower = word.lowercased()
        if let irregular = irregular[lower] {
            return word.first!.isUppercase ? irregular.prefix(1).uppercased() + irregular.dropFirst() : irregular
        }
        if uncountable.contains(lower) { return word }
        for (suffix, replacement) in suffixes where lower.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count)) + replacement
        }
        if lower.hasSuffix("y"), lower.count > 1, !"aeiou".contains(lower.dropLast().last!) {
            return String(word.dropLast()) + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return word + "es" }
        return word + "s"
    }

    private static let irregular: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice",
        "goose": "geese", "foot": "feet", "tooth": "teeth", "ox": "oxen", "quiz": "quizzes",
        "leaf": "leaves", "life": "lives", "knife": "knives", "wife": "wives", "half": "halves",
        "shelf": "shelves", "wolf": "wolves", "calf": "calves", "loaf": "loaves", "thief": "thieves",
        "hero": "heroes", "potato": "potatoes", "tomato": "tomatoes", "echo": "echoes", "veto": "vetoes",
        "cactus": "cacti", "focus": "foci", "fungus": "fungi", "nucleus": "nuclei", "radius": "radii",
        "stimulus": "stimuli", "alumnus": "alumni", "appendix": "appendices", "index": "indices",
        "matrix": "matrices", "vertex": "vertices", "criterion": "criteria", "phenomenon": "phenomena",
        "medium": "media", "datum": "data", "bacterium": "bacteria", "curriculum": "curricula",
    ]
    private static let uncountable: Set<String> = [
        "sheep", "fish", "deer", "series", "species", "equipment", "information", "rice", "money",
        "news", "data", "aircraft", "metadata", "software", "feedback", "staff",
    ]
    /// Endings replaced whole: Greek `-is` (analysis -> analyses).
    private static let suffixes: [(String, String)] = [("sis", "ses"), ("xis", "xes")]
}
