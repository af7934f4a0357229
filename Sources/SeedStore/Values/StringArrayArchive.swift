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
    /// `unarchivable` (it would be read back as nothing) or they pass what a list holds.
    package static func archive(_ strings: [String]) -> [UInt8]? {
        guard let list = UTF8StringList(strings) else { return nil }
        return archive(list)
    }

    /// The archive of `strings`, the same bytes for the same strings; nil when one of them is
    /// `unarchivable`. Written object by object (`BinaryPropertyListWriter.ObjectStream`)
    /// exactly as the writer writes the archive's property list (`propertyList(of:)`; the tests
    /// check the two agree): objects numbered depth-first, keys in byte order, nothing shared.
    /// A list of a million strings takes its bytes and a few integers a string in memory, not a
    /// value per object.
    package static func archive(_ strings: UTF8StringList) -> [UInt8]? {
        guard !strings.contains(bytesOf: unarchivable) else { return nil }
        let (distinct, uses) = numbered(strings)
        let count = uses.count, classNumber = distinct.count + 2
        // Depth-first: the root (0), its keys (1-4), "NSKeyedArchiver" (5), $objects (6): "$null"
        // (7), the array (8) with its keys (9, 10), its class (11) and NS.objects (12) with one
        // reference object per string (13…), the distinct strings, the class's dictionary, its
        // keys, $classes with its two names, and $classname; then $top (its dictionary, key and
        // value) and $version.
        let firstString = 13 + count, classObject = firstString + distinct.count, top = classObject + 7
        let objectCount = top + 4
        // At most: a string's bytes (2 a byte where not ASCII) and a 10-byte marker; a reference
        // object (a UID of up to 5 bytes), a reference to it and its offset, as wide as the
        // numbers and the document need; 200 for the rest.
        let referenceSize = BinaryPropertyListWriter.byteCount(for: UInt64(objectCount))
        var stringBytes = 0
        for index in distinct {
            let utf8 = strings.utf8(at: Int(index))
            stringBytes += 10 + (utf8.allSatisfy { $0 < 0x80 } ? 1 : 2) * utf8.count
        }
        let bound = 200 + stringBytes + (5 + referenceSize) * count + 2 * referenceSize * distinct.count
        let capacity = bound + BinaryPropertyListWriter.byteCount(for: UInt64(bound)) * objectCount
        var stream = BinaryPropertyListWriter.ObjectStream(objectCount: objectCount, capacity: capacity)
        stream.appendContainer(dictionary: true, references: [1, 2, 3, 4, 5, 6, top, top + 3])
        for key in ["$archiver", "$objects", "$top", "$version", "NSKeyedArchiver"] { stream.append(.string(key)) }
        stream.appendContainer(dictionary: false, references: [7, 8] + Array(firstString...classObject))
        stream.append(.string("$null"))
        stream.appendContainer(dictionary: true, references: [9, 10, 11, 12])
        stream.append(.string("$class"))
        stream.append(.string("NS.objects"))
        stream.append(.uid(UInt64(classNumber)))
        stream.appendContainer(dictionary: false, references: 13..<firstString)
        for number in uses { stream.append(.uid(UInt64(number))) }
        for index in distinct { stream.appendString(utf8: strings.utf8(at: Int(index))) }
        stream.appendContainer(dictionary: true, references: [classObject + 1, classObject + 2, classObject + 3, classObject + 6])
        stream.append(.string("$classes"))
        stream.append(.string("$classname"))
        stream.appendContainer(dictionary: false, references: [classObject + 4, classObject + 5])
        for name in ["NSArray", "NSObject", "NSArray"] { stream.append(.string(name)) }
        stream.appendContainer(dictionary: true, references: [top + 1, top + 2])
        stream.append(.string("root"))
        stream.append(.uid(1))
        stream.append(.integer(100_000))
        return stream.finish()
    }

    /// The archive's property list, as Foundation's archiver holds it: each distinct string once,
    /// in first-use order, then the class. `archive(_:)` writes exactly what the writer makes of it.
    static func propertyList(of strings: [String]) -> PropertyListValue {
        let list = UTF8StringList(strings)!
        let (distinct, uses) = numbered(list)
        let classNumber = UInt64(distinct.count + 2)
        let objects: [PropertyListValue] = [.string("$null"), .dictionary(["NS.objects": .array(uses.map { .uid(UInt64($0)) }), "$class": .uid(classNumber)])]
            + distinct.map { .string(list[Int($0)]) }
            + [.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])])]
        return .dictionary([
            "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects),
        ])
    }

    /// The distinct strings in first-use order (as their places in `strings`), and each string's
    /// object number ($objects[2…]). Strings are equal when their bytes are: a composed and a
    /// decomposed "é" are two objects, each read back as it was given. Equal strings are found
    /// through an open-addressing table of indices into `distinct` (4 bytes a slot; a
    /// `[String: Int]` of a million strings took 76 MB at its peak). The order is first use,
    /// whatever the hashes: the same strings give the same archive.
    private static func numbered(_ strings: UTF8StringList) -> (distinct: [UInt32], uses: [UInt32]) {
        var distinct: [UInt32] = []
        var uses: [UInt32] = []
        uses.reserveCapacity(strings.count)
        var capacity = 16
        while capacity < 2 * strings.count { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for index in strings.indices {
            var slot = strings.hashValue(at: index) & mask
            while true {
                let found = slots[slot]
                if found < 0 {
                    slots[slot] = Int32(distinct.count)
                    uses.append(UInt32(distinct.count + 2))  // after "$null" and the array itself
                    distinct.append(UInt32(index))
                    break
                }
                if strings.bytesEqual(Int(distinct[Int(found)]), index) {
                    uses.append(UInt32(found) + 2)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return (distinct, uses)
    }

    /// The strings of an archive that is exactly what `archive(_:)` writes for them; nil for any
    /// other bytes (another writer's archive of the same strings included), which a dump then
    /// gives as they are.
    package static func strings(in bytes: [UInt8]) -> [String]? {
        // Read object by object, not expanded whole (`PropertyListValue` bounds what it
        // expands, far below a list of a million strings): each string is read once per use.
        guard let plist = try? BinaryPropertyList(bytes: bytes),
              let objects = try? member("$objects", of: plist.topObject, in: plist),
              case .array(let objects)? = try? plist.object(objects), objects.count >= 3,
              let references = try? member("NS.objects", of: objects[1], in: plist),
              case .array(let references)? = try? plist.object(references)
        else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(references.count)
        for reference in references {
            guard case .uid(let number)? = try? plist.object(reference), number < objects.count,
                  let text = try? plist.string(objects[number]) else { return nil }
            strings.append(text)
        }
        return archive(strings) == bytes ? strings : nil  // nil for `$null` too: archive gives none
    }

    /// The object a dictionary object holds under `key`; nil when it is no dictionary or holds none.
    private static func member(_ key: String, of dictionary: Int, in plist: BinaryPropertyList) throws(BinaryPropertyList.Failure) -> Int? {
        guard case .dictionary(let pairs) = try plist.object(dictionary) else { return nil }
        for pair in pairs where try plist.string(pair.key) == key { return pair.value }
        return nil
    }
}
