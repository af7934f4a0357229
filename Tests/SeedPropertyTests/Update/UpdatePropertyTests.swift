import Foundation
import PropertyBased
import SeedModelLoader
import SeedEvolution
import SeedStore
import SeedgenTestSupport
import Testing

/// The seed-update property: seed 1 of generated objects (`Sample`: every attribute type's edge
/// values, a to-one, a many-to-many, an ordered to-many), seed 2 made from it by keeping,
/// changing (another sample's values) and removing objects at random and adding others, a store
/// installed from seed 1 that its user changed (some objects' text, one deleted with Core Data's
/// nullify rules, an object of their own that points at a seeded one). After `SeedUpdater` the store holds exactly what the rules say —
/// value for value, strings byte for byte, each to-one's destination by key — its many-to-many
/// links are seed 2's and those of seed 1's that seed 2 did not drop (with a record of links;
/// without one, as an older seedgen wrote, they lie between the two seeds'), it verifies clean, the report names what it did, and a
/// second update writes nothing. The diff of the two seeds counts what seed 2 added and removed,
/// every object whose values differ as changed, and a seed against itself as the same.
///
/// `SEEDGEN_PROPERTY_CASES` sets the number of cases (`make property` runs 3,000).
@Suite("Seed-update properties")
struct UpdatePropertyTests {
    typealias Contents = RoundTripPropertyTests.Contents

    /// A deterministic stream of choices from one generated number (SplitMix64).
    struct Choices {
        var random: SplitMix64
        init(state: UInt64) { random = SplitMix64(seed: state) }
        mutating func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    }

    static func key(_ sample: Sample) -> [UInt8] { Array((sample.name.string ?? "").utf8) }

    /// Each member's list owner, by key.
    static func owners(_ contents: Contents) -> [[UInt8]: [UInt8]] {
        Dictionary(contents.members.flatMap { owner, members in members.map { ($0, owner) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Seed 2: each object of seed 1 kept (half; a third of those with a many-to-many link less
    /// and one more), changed to carry `others`' values (a quarter) or removed (a quarter); then
    /// `others`' objects whose keys seed 1 lacks, added.
    static func secondSeed(from first: [Sample], others: [Sample], choices: inout Choices) -> [Sample] {
        var second: [Sample] = []
        for (index, sample) in first.enumerated() {
            switch choices.next(4) {
            case 0: continue
            case 1:
                var changed = sample
                changed.values = others.isEmpty ? [:] : others[index % others.count].values
                second.append(changed)
            default:
                // Kept; now and then with a link less and one more (to an object kept before it).
                var kept = sample
                if choices.next(3) == 0 {
                    if !kept.friends.isEmpty { kept.friends.removeFirst() }
                    if let other = second.last, !kept.friends.contains(other.id) { kept.friends.append(other.id) }
                }
                second.append(kept)
            }
        }
        let taken = Set(first.map(key))
        for sample in others where !taken.contains(key(sample)) {
            var added = sample
            added.id = "b" + sample.id
            added.friends = sample.friends.map { "b" + $0 }
            added.members = sample.members.map { "b" + $0 }
            second.append(added)
        }
        return MigrationPropertyTests.storable(second)
    }

    /// Builds `samples` in a directory of its own; nil (recorded) when the build refuses them.
    static func build(_ samples: [Sample], layout: StoreLayout) throws -> (String, TemporaryDirectory)? {
        let directory = try TemporaryDirectory()
        let build = try RoundTripPropertyTests.build(samples, as: .binaryPlist, layout: layout, in: directory)
        guard case .success = build.result else {
            Issue.record("values every format holds were refused: \(build.result)")
            directory.remove()
            return nil
        }
        return (build.path, directory)
    }

    /// The user's object: its key, and the text the user gives the objects they change.
    static let userKey: [UInt8] = Array("\u{1}mine".utf8)
    static let userText = "the user's \u{0} text"

    @Test("an update leaves exactly what the rules say (added, changed, removed; the user's changes, object and its destination kept), verifies clean and is idempotent")
    func updateKeepsTheRules() async throws {
        let modelDirectory = try TemporaryDirectory()
        defer { modelDirectory.remove() }
        let layout = try StoreLayout(model: try ModelLoader.load(from: try modelDirectory.write(Sample.model, to: "Sample.xcdatamodel/contents")))
        let text = Sample.attributes.firstIndex { $0.name == "text" }!, parent = Sample.attributes.count
        await propertyCheck(count: max(1, RoundTripPropertyTests.cases / 3), input: Sample.generator(), Sample.generator(), Gen.int(in: 0...Int.max)) { a, b, seed in Issue.recordThrown {
            var choices = Choices(state: UInt64(seed))
            let first = MigrationPropertyTests.storable(a)
            let second = Self.secondSeed(from: first, others: MigrationPropertyTests.storable(b), choices: &choices)
            guard !first.isEmpty, let contents1 = RoundTripPropertyTests.expectedContents(first),
                  let contents2 = RoundTripPropertyTests.expectedContents(second),
                  let (seed1, directory1) = try Self.build(first, layout: layout),
                  let (seed2, directory2) = try Self.build(second, layout: layout) else { return }
            defer { directory1.remove(); directory2.remove() }
            let store = try directory1.install(seed1, as: "installed.sqlite")

            // The diff of the seeds: objects matched by key, whatever their Z_PKs.
            let keys1 = Set(contents1.rows.keys), keys2 = Set(contents2.rows.keys)
            let counts = StoreDiff.Counts.total(try StoreDiff(old: seed1, new: seed2, layout: layout).run { _ in }.values)
            #expect(counts.added == keys2.subtracting(keys1).count && counts.removed == keys1.subtracting(keys2).count, "\(counts)")
            #expect(counts.changed + counts.same == keys1.intersection(keys2).count, "\(counts)")
            let rowsDiffer = keys1.intersection(keys2).filter { key in
                zip(contents1.rows[key]!, contents2.rows[key]!).contains { !$0.sameStored(as: $1) }
            }
            #expect(counts.changed >= rowsDiffer.count, "\(counts): \(rowsDiffer.count) objects' values differ")
            let itself = StoreDiff.Counts.total(try StoreDiff(old: seed1, new: seed1, layout: layout).run { _ in }.values)
            #expect(itself.same == keys1.count && itself.changed + itself.added + itself.removed == 0, "\(itself)")

            // The user: changes the text of some objects, deletes one (its relationships nullified,
            // as Core Data's rules do: the objects that pointed at it change too), and makes one
            // of their own pointing at one of seed 1's.
            let sortedKeys = contents1.rows.keys.sorted { $0.lexicographicallyPrecedes($1) }
            let pointedAt = sortedKeys[choices.next(sortedKeys.count)]
            let deletable = sortedKeys.filter { $0 != pointedAt }
            let deleted = deletable.isEmpty || choices.next(2) == 0 ? nil : deletable[choices.next(deletable.count)]
            let changedByUser = Set(contents1.rows.keys.filter { $0 != deleted && choices.next(3) == 0 })
            let memberOf1 = Self.owners(contents1), memberOf2 = Self.owners(contents2)
            func parentKey(_ row: [SQLValue]) -> [UInt8]? { row[parent].text.map { Array($0.utf8) } }
            let nullified = Set(contents1.rows.compactMap { key, row in
                deleted != nil && key != deleted && (parentKey(row) == deleted || memberOf1[key] == deleted) ? key : nil
            })
            do {
                let database = try Database(path: store, mode: .readWrite)
                func named(_ key: [UInt8]) -> SQLValue { .text(String(decoding: key, as: UTF8.self)) }
                for key in changedByUser {
                    try database.run("UPDATE ZSAMPLE SET ZTEXT = ?, Z_OPT = Z_OPT + 1 WHERE ZNAME = ?", [.text(Self.userText), named(key)])
                }
                if let deleted {
                    let position = try #require(layout.toOneColumns(for: "memberOf", of: "Sample")?.order)
                    let (join, _) = try #require(layout.joinTableSide(for: "friends", of: "Sample"))
                    let pk = try #require(try database.scalar("SELECT Z_PK FROM ZSAMPLE WHERE ZNAME = ?", [named(deleted)]))
                    try database.run("UPDATE ZSAMPLE SET ZPARENT = NULL, Z_OPT = Z_OPT + 1 WHERE ZPARENT = ?", [pk])
                    try database.run("UPDATE ZSAMPLE SET ZMEMBEROF = NULL, \(position) = NULL, Z_OPT = Z_OPT + 1 WHERE ZMEMBEROF = ?", [pk])
                    try database.run("DELETE FROM \(join.name) WHERE \(join.firstColumn) = ?1 OR \(join.secondColumn) = ?1", [pk])
                    try database.run("DELETE FROM ZSAMPLE WHERE Z_PK = ?", [pk])
                }
                try database.run("""
                    INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPARENT) VALUES
                      ((SELECT Z_MAX + 1 FROM Z_PRIMARYKEY WHERE Z_NAME = 'Sample'), 1, 1, ?, (SELECT Z_PK FROM ZSAMPLE WHERE ZNAME = ?))
                    """, [named(Self.userKey), named(pointedAt)])
                try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Sample'")
            }

            // What the rules leave: seed 2's objects as seed 2 has them (a to-one to the deleted
            // object none), unless the user changed them; the deleted object deleted; seed 1's
            // removed objects only when the user changed them or a kept object's to-one (parent,
            // memberOf) points at them; the user's object as they made it.
            let byUser = changedByUser.union(nullified)
            var userRow = [SQLValue](repeating: .null, count: parent + 1)
            userRow[0] = .text(String(decoding: Self.userKey, as: UTF8.self))
            userRow[parent] = .text(String(decoding: pointedAt, as: UTF8.self))
            var expected = Contents()
            for (key, var row) in contents2.rows where !byUser.contains(key) && key != deleted {
                if parentKey(row) == deleted { row[parent] = .null }
                expected.rows[key] = row
            }
            var toOnes: [[UInt8]] = [pointedAt]
            func pointedAtBy(_ row: [SQLValue], of key: [UInt8]) {
                if let destination = parentKey(row) { toOnes.append(destination) }
                if let owner = memberOf1[key], owner != deleted { toOnes.append(owner) }
            }
            for key in byUser {
                var row = contents1.rows[key]!
                if changedByUser.contains(key) { row[text] = .text(Self.userText) }
                if parentKey(row) == deleted { row[parent] = .null }
                expected.rows[key] = row
                pointedAtBy(row, of: key)
            }
            while let key = toOnes.popLast() {
                guard expected.rows[key] == nil, let row = contents1.rows[key] else { continue }
                expected.rows[key] = row
                pointedAtBy(row, of: key)
            }
            expected.rows[Self.userKey] = userRow
            // The objects seed 2 changes: another value (bytes and storage class), to-one destination or list owner.
            let changedBySeed = Set(keys1.intersection(keys2).filter { key in
                zip(contents1.rows[key]!, contents2.rows[key]!).contains { !$0.isIdentical(to: $1) } || memberOf1[key] != memberOf2[key]
            })
            // A quarter of the stores carry a record without its links, as an older seedgen wrote it.
            let recordsLinks = choices.next(4) != 0
            if !recordsLinks {
                try Database(path: store, mode: .readWrite).execute("DROP TABLE \(SeedRecord.linksTable)")
            }
            let deletedKeys = Set([deleted].compactMap { $0 })
            let report = try SeedUpdater(storeAt: store, seedAt: seed2, layout: layout).update()
            // A seed 2 that holds what seed 1 did (everything kept) is no update: nothing is written.
            let seedsDiffer = counts.added + counts.removed + counts.changed > 0
            #expect(report.updated == seedsDiffer, "\(counts)")
            var found = try RoundTripPropertyTests.contents(store, layout: layout)
            let links = found.friends
            found.friends = []
            found.members = [:]
            let difference = RoundTripPropertyTests.difference(found, expected)
            #expect(difference == nil, "\(difference ?? "")\nchanged by the user: \(changedByUser.map { String(decoding: $0, as: UTF8.self) }), the user's object points at \(String(decoding: pointedAt, as: UTF8.self))")
            if recordsLinks {
                // Links: seed 2's between objects the store holds; seed 1's that seed 2 drops
                // between objects both seeds hold are gone; seed 1's others stay while their objects do.
                let survivors = Set(expected.rows.keys), inBoth = keys1.intersection(keys2).subtracting(deletedKeys)
                let wanted = contents2.friends.filter { $0.allSatisfy { !deletedKeys.contains($0) } }.union(contents1.friends.filter { link in
                    link.allSatisfy(survivors.contains) && !(link.allSatisfy(inBoth.contains) && !contents2.friends.contains(link))
                })
                #expect(links == wanted, "links missing: \(wanted.subtracting(links)), links left: \(links.subtracting(wanted))")
            } else {
                // A record without its links (an older seedgen's): seed 2's links between objects
                // the user did not change (or delete) are added; none that neither seed had.
                let seeded = keys2.subtracting(byUser).subtracting(deletedKeys)
                let wanted = contents2.friends.filter { $0.allSatisfy(seeded.contains) }
                #expect(wanted.isSubset(of: links), "missing links: \(wanted.subtracting(links))")
                #expect(links.isSubset(of: contents1.friends.union(contents2.friends)), "links neither seed had: \(links.subtracting(contents1.friends.union(contents2.friends)))")
            }
            // Verify clean; a store the update did not write still carries the seed's digest and
            // seal, which the user's changes broke (as on any store its app wrote to).
            let findings = try StoreVerifier(storePath: store, layout: layout).verify()
                .filter { !$0.isNote && (seedsDiffer || !["content-digest", "seal"].contains($0.check)) }
            #expect(findings.isEmpty, "\(findings)")
            #expect(Set(report.added.map { Array($0.key.utf8) }).count == report.added.count)
            #expect(report.added.count == Set(contents2.rows.keys).subtracting(contents1.rows.keys).count)
            func keys(_ objects: [SeedUpdateReport.Object]) -> Set<String> { Set(objects.map(\.key)) }
            func keyTexts(_ keys: Set<[UInt8]>) -> Set<String> {
                Set(keys.map { "name=" + NamedObject.text(.text(String(decoding: $0, as: UTF8.self)), .string) })
            }
            let removedBySeed = keys1.subtracting(keys2)
            let keptLinked = Set(expected.rows.keys).intersection(removedBySeed).subtracting(byUser)
            #expect(keys(report.keptChangedByUser) == keyTexts(byUser.intersection(changedBySeed.union(removedBySeed))), "kept as the user changed them")
            #expect(keys(report.keptDeletedByUser) == keyTexts(deletedKeys.intersection(changedBySeed)), "kept deleted")
            // An object whose links alone changed is changed too, named from the join table's first
            // column (as the diff names it), unless the report names it already.
            let (_, friendsFirst) = try #require(layout.joinTableSide(for: "friends", of: "Sample"))
            let before = contents1.friends.filter { $0.allSatisfy { !deletedKeys.contains($0) } }
            let linkOwners = Set(before.symmetricDifference(links).map { friendsFirst ? $0[0] : $0[1] })
                .intersection(keys1.intersection(keys2)).subtracting(deletedKeys).subtracting(changedBySeed)
            #expect(keys(report.changed) == keyTexts(changedBySeed.subtracting(byUser).subtracting(deletedKeys).union(linkOwners)), "changed")
            #expect(keys(report.keptLinked) == keyTexts(keptLinked), "kept as something points at them")
            #expect(keys(report.removed) == keyTexts(removedBySeed.subtracting(byUser).subtracting(deletedKeys).subtracting(keptLinked)), "removed")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
            #expect(try !SeedUpdater(storeAt: store, seedAt: seed2, layout: layout).update().updated)
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        } }
    }
}
