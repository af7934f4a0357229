import SeedStore

extension SeedUpdateReport: CustomStringConvertible {
    /// One line per object with what happened to it, in the report's order: `+` added, `~`
    /// changed, `-` removed, `=` kept and why (`= Book[isbn="2"] kept: the user changed it`).
    package var objectLines: [String] {
        let groups: [(sign: String, why: String, objects: [Object])] = [
            ("+", "", added), ("~", "", changed), ("-", "", removed),
            ("=", " kept: the user changed it", keptChangedByUser),
            ("=", " kept: the user deleted it", keptDeletedByUser),
            ("=", " not added: the user deleted its owner", notAddedOwnerDeleted),
            ("=", " kept: something of the user's points at it", keptLinked),
            ("=", " kept: a user's object holds its key", keptUserObject),
        ]
        return groups.flatMap { group in group.objects.map { "\(group.sign) \($0)\(group.why)" } }
    }

    /// The counts in words: `1 added, 1 changed, 1 removed, 2 kept for the user`.
    package var counts: String {
        let kept = keptChangedByUser.count + keptDeletedByUser.count + notAddedOwnerDeleted.count + keptLinked.count + keptUserObject.count
        return "\(added.count) added, \(changed.count) changed, \(removed.count) removed, \(kept) kept for the user"
    }

    /// The object lines, then the counts; or that the store held the seed already.
    public var description: String {
        guard updated else { return "the store held this seed already; nothing changed" }
        return (objectLines + [counts + (seedDigest.map { "; the store now holds seed \($0)" } ?? "")]).joined(separator: "\n")
    }
}
