import SeedModel
import SeedStore

/// The values of the object being built, in the plan's buffer (indexed by INSERT parameter):
/// converted by their attributes' types and checked by the model's rules as they are given.
extension EntityPlan {
    /// Converts and keeps one attribute value. The location is made only for a message (the hot
    /// path makes none).
    func setValue(_ slot: AttributeSlot, _ bytes: UnsafeBufferPointer<UInt8>, at location: @autoclosure () -> InputLocation) throws(InputError) {
        do {
            values[Int(slot.parameter)] = try slot.converter.convert(bytes)
        } catch {
            throw InputError("\(entity.name).\(slot.attribute.name): \(error)", at: location())
        }
        // Most attributes have no rules: one nil test on the hot path.
        if slot.rules != nil { try check(values[Int(slot.parameter)]!, slot, at: location()) }
    }

    /// The model's validation rules for one value (what Core Data would refuse on save).
    func check(_ value: SQLValue, _ slot: AttributeSlot, at location: @autoclosure () -> InputLocation) throws(InputError) {
        guard let rules = slot.rules, let problem = rules.violation(value) else { return }
        throw InputError("\(entity.name).\(slot.attribute.name): \(problem)", at: location())
    }

    /// Gives a SwiftData enum without raw values the case `text` names: that case's element
    /// holds its name, the others stay nil.
    func setCase(_ cases: [String: AttributeSlot], _ text: inout String, of property: String, at location: InputLocation) throws(InputError) {
        guard let slot = cases[text] else {
            throw InputError("\(entity.name).\(property): '\(text.prefix(80))' is no case of the enum: \(cases.keys.sorted().joined(separator: ", "))", at: location)
        }
        try text.withUTF8 { bytes in Result { () throws(InputError) in try setValue(slot, bytes, at: location) } }.get()
    }
}
