/// Names kept once and given by number (files, entities, relationships), so that compact
/// records (`KeyTable`'s reservations, `PendingReferences`) hold a small number, not a string.
struct NameNumbers {
    private var names: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `name`, given it at first sight.
    mutating func number(of name: String) -> Int {
        if let known = numbers[name] { return known }
        names.append(name)
        numbers[name] = names.count - 1
        return names.count - 1
    }

    subscript(number: Int) -> String { names[number] }

    /// How many names were given a number.
    var count: Int { names.count }
}
