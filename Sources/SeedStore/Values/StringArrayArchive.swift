/// A Swift `[String]` as SwiftData stores it in a Transformable attribute (MetaCocktails'
/// `CocktailImage.garnishes`: value class `Array<String>`, transformer
/// `NSSecureUnarchiveFromData`): a keyed archive of an `NSArray` of strings, a binary property
/// list `{$archiver: NSKeyedArchiver, $version: 100000, $top: {root: UID 1}, $objects: […]}`.
///
/// Written here, not by Foundation's `NSKeyedArchiver`: on Linux that orders the archive's
/// dictionaries differently from run to run (three runs archiving `["a", "b", "a"]` gave three
/// different byte strings), and a seed's bytes must not change between builds. What is written
/// is what Foundation's own archiver holds for such an array (each distinct string once, in
/// first-use order, then the class), and Foundation's `NSKeyedUnarchiver` reads it back (tested).
/// That Apple's framework writes the same objects in the same order is *assumed*: no real store
/// holds such a value.
package enum StringArrayArchive {
    /// The one string such an archive cannot hold: a string object `$null` is nil to
    /// Foundation's unarchiver (on Linux its own archive of `["$null", "x"]` reads back as `["x"]`).
    package static let unarchivable = "$null"

    /// The archive of `strings`, the same bytes for the same strings; nil when one of them is
    /// `unarchivable` (it would be read back as nothing).
    package static func archive(_ strings: [String]) -> [UInt8]? {
        guard !strings.contains(unarchivable) else { return nil }
        var distinct: [String] = []
        var numbers: [String: UInt64] = [:]
        let references = strings.map { text -> PropertyListValue in
            if let number = numbers[text] { return .uid(number) }
            let number = UInt64(distinct.count + 2)  // after "$null" and the array itself
            numbers[text] = number
            distinct.append(text)
            return .uid(number)
        }
        let classNumber = UInt64(distinct.count + 2)
        let objects: [PropertyListValue] = [.string("$null"), .dictionary(["NS.objects": .array(references), "$class": .uid(classNumber)])]
            + distinct.map(PropertyListValue.string)
            + [.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])])]
        return BinaryPropertyListWriter.encode(.dictionary([
            "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects),
        ]))
    }

    /// The strings of an archive that is exactly what `archive(_:)` writes for them; nil for any
    /// other bytes (another writer's archive of the same strings included), which a dump then
    /// gives as they are.
    package static func strings(in bytes: [UInt8]) -> [String]? {
        guard bytes.count < 1 << 24, let value = try? PropertyListValue(decoding: bytes),
              case .dictionary(let top) = value, case .array(let objects)? = top["$objects"],
              objects.count >= 3, case .dictionary(let array) = objects[1], case .array(let references)? = array["NS.objects"]
        else { return nil }
        var strings: [String] = []
        for reference in references {
            guard case .uid(let number) = reference, number < objects.count, case .string(let text) = objects[Int(number)] else { return nil }
            strings.append(text)
        }
        return archive(strings) == bytes ? strings : nil  // nil for `$null` too: archive gives none
    }
}
