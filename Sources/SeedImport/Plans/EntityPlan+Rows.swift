import SeedModel
import SeedStore

/// A new row of the plan's entity, in its values buffer, before it is written.
extension EntityPlan {
    /// Settles the row now when it is `complete` (nothing can name the object again: no natural
    /// key, no identifier): its defaults filled and its required attributes and structs checked.
    /// Otherwise a later mention may complete it, and `settleRows` checks it at the end.
    func settleNewRow(complete: Bool, at location: InputLocation) throws(InputError) {
        if complete {
            for slot in attributeSlots where values[Int(slot.parameter)] == nil {
                values[Int(slot.parameter)] = slot.defaultValue
                if slot.defaultValue == nil && !slot.attribute.isOptional {
                    throw InputError("\(entity.name): the required attribute '\(slot.attribute.name)' is missing", at: location)
                }
            }
            if let incomplete = incompleteComposite() { throw InputError(incomplete, at: location) }
        } else {
            if !compositeRequirements.isEmpty { wroteUncheckedComposite = true }
            if !wroteUnsettledRow {
                for parameter in settledParameters where values[parameter] == nil {
                    wroteUnsettledRow = true
                    break
                }
            }
        }
    }

    /// Refuses, where it is given, an object whose row SQLite would refuse as longer than
    /// `limit`: its text and blob bytes, and at most 9 bytes a column for the numbers and the
    /// record's header (an over-estimate by at most that much).
    func checkRowLength(limit: Int, at location: InputLocation) throws(InputError) {
        // Only the text and binary values have lengths of their own (`variableParameters`).
        // `payloadByteCount` on each: 5 alternating pairs of the 1M catalog showed no cost
        // against a switch in line.
        func size(_ parameter: Int) -> Int { values[parameter]?.payloadByteCount ?? 0 }
        var bytes = fixedRowBytes
        for parameter in variableParameters { bytes += size(parameter) }
        guard bytes > limit else { return }
        let biggest = attributeSlots.max { size(Int($0.parameter)) < size(Int($1.parameter)) }
            .map { ", \($0.attribute.name) alone \(size(Int($0.parameter)))" } ?? ""
        throw InputError("\(entity.name): the object's values take \(bytes) bytes\(biggest); SQLite stores at most \(limit) bytes in a row", at: location)
    }
}
