import SeedModel
import SeedStore

/// The end of a build for one entity's rows: what a later mention could still have given is
/// settled, then the model's requirements are checked as Core Data checks them on save. The
/// first row that breaks one is the error, at the place the row was defined.
extension EntityPlan {
    /// Fills the defaults of rows a later mention could have completed (keyed or identified
    /// objects; an attribute given nil stays NULL unless another mention gave it a value), then
    /// checks required attributes and to-ones, structs given in part and to-many counts.
    func settleRows(in builder: StoreBuilder, model: DataModel) throws(InputError) {
        let origin = InputLocation(file: model.source, line: 0, column: 0)
        let number = layout.number
        // Rows written with their defaults and required attributes were settled then; none are
        // left to settle when every row was.
        var required: [(column: String, message: String)] = []
        if wroteUnsettledRow {
            let defaults = attributeSlots.compactMap { slot in slot.defaultValue.map { (slot.column, $0) } }
            try builder.rows(at: origin) { rows throws(SQLiteError) in
                var kept: [(primaryKey: Int64, column: String)] = []
                for given in keptNulls where try rows.values(of: given.primaryKey, in: table, columns: [given.column]).first == .null {
                    kept.append(given)
                }
                try rows.fillNulls(in: table, ofEntity: number, with: defaults)
                for (primaryKey, column) in kept { try rows.update(primaryKey, in: table, set: [(column, .null)]) }
            }
            for slot in attributeSlots where slot.defaultValue == nil && !slot.attribute.isOptional {
                required.append((slot.column, "the required attribute '\(slot.attribute.name)' is missing"))
            }
        }
        for slot in toOnes.values.sorted(by: { $0.column < $1.column }) where !slot.relationship.isOptional {
            required.append((slot.column, "the required relationship '\(slot.relationship.name)' is not set"))
        }
        if let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
            try rows.firstRow(in: table, ofEntity: number, whereAnyNull: required.map(\.column))
        }) {
            throw InputError("\(entity.name) #\(found.primaryKey): \(required[found.column].message)", at: primaryKeys.definition(of: found.primaryKey) ?? origin)
        }
        if wroteUncheckedComposite {
            for requirement in compositeRequirements {
                if let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
                    try rows.firstPartialRow(in: table, ofEntity: number, given: requirement.members.map(\.column), required: requirement.required.map(\.column))
                }) {
                    let message = Self.incompleteMessage(entity.name, requirement, given: requirement.members[found.given], missing: requirement.required[found.missing])
                    throw InputError("\(entity.name) #\(found.primaryKey): \(message)", at: primaryKeys.definition(of: found.primaryKey) ?? origin)
                }
            }
        }
        for relationship in relationships.values.sorted(by: { $0.name < $1.name }) where relationship.isToMany {
            try checkCount(of: relationship, in: builder, model: model)
        }
    }

    /// A to-many's `minCount`/`maxCount`, as Core Data validates them on save.
    private func checkCount(of relationship: RelationshipDescription, in builder: StoreBuilder, model: DataModel) throws(InputError) {
        let origin = InputLocation(file: model.source, line: relationship.line, column: 0)
        guard let found = try builder.rows(at: origin, { rows throws(SQLiteError) in
            try rows.firstCountViolation(of: relationship, from: entity.name)
        }) else { return }
        let bounds = relationship.maxCount > 0 ? "\(relationship.minCount)...\(relationship.maxCount)" : "at least \(relationship.minCount)"
        throw InputError("\(entity.name) #\(found.primaryKey): \(relationship.name) has \(found.count) object(s); the model allows \(bounds) (minCount/maxCount)",
                         at: primaryKeys.definition(of: found.primaryKey) ?? origin)
    }

    /// The error for two rows of this plan's table that break a uniqueness constraint (`clash`,
    /// the first two found): at the later row, naming both, their own entities (a table holds
    /// an entity and its sub-entities) and the values they share.
    func uniquenessError(_ clash: ObjectRows.UniqueClash, layout storeLayout: StoreLayout, origin: InputLocation) -> InputError {
        let names = Dictionary(attributeSlots.map { ($0.column, $0.attribute.name) } + toOnes.values.map { ($0.column, $0.relationship.name) },
                               uniquingKeysWith: { first, _ in first })
        let shared = clash.values.map { column, value in "\(names[column] ?? column) \(value.excerpt)" }.joined(separator: ", ")
        let (first, second) = clash.primaryKeys
        let (firstEntity, secondEntity) = (storeLayout.entity(number: clash.entityNumbers.first)?.name ?? entity.name,
                                           storeLayout.entity(number: clash.entityNumbers.second)?.name ?? entity.name)
        let firstPlace = primaryKeys.definition(of: first).map { " (defined at \($0))" } ?? ""
        return InputError("\(secondEntity) #\(second) breaks a uniqueness constraint: it has \(shared), as \(firstEntity) #\(first)\(firstPlace) has",
                          at: primaryKeys.definition(of: second) ?? origin)
    }
}
