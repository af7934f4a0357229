import SeedModel
import SeedStore

/// What one store's rows decide of a `MigrationPlan`, which the two models alone made: the
/// refusals its rows add to the plan's, what the migration removes of what it holds, and the
/// warnings that depend on it. A second value beside the plan, which never changes: made before
/// the first write (`MigrationPlan.assessment(of:path:source:)`), then with the count
/// (`counting(_:plan:source:destination:)`) a new one.
package struct StoreAssessment: Sendable {
    /// Why the migration cannot be done on this store: the plan's refusals, then those its
    /// rows add; empty when it can.
    package let refusals: [MigrationPlan.Refusal]
    /// What the migration removes from the store, with how much of it the store holds (empty
    /// until counted).
    package let removals: [MigrationPlan.Removal]
    /// The plan's warnings, then those the store's counts raise (a lookalike rename).
    package let warnings: [MigrationPlan.Warning]

    /// Whether the migration can be done on this store.
    package var isPossible: Bool { refusals.isEmpty }

    init(refusals: [MigrationPlan.Refusal], removals: [MigrationPlan.Removal] = [], warnings: [MigrationPlan.Warning]) {
        self.refusals = refusals
        self.removals = removals
        self.warnings = warnings
    }

    /// This assessment with what the count found the migration removes (`MigrationLedger`), and
    /// the warnings that raises.
    func counting(_ removals: [MigrationPlan.Removal], plan: MigrationPlan, source: DataModel, destination: DataModel) -> StoreAssessment {
        StoreAssessment(refusals: refusals, removals: removals,
                        warnings: warnings + Self.lookalikeRenames(in: plan, removals: removals, source: source, destination: destination))
    }

    /// A warning for each attribute `plan` removes that holds values (`removals`) beside an
    /// attribute of the same type that it adds to the same entity: it looks like a
    /// rename without a renaming identifier, which drops the values on every user's device. The
    /// advice names the identifier Core Data would match: the removed attribute's own renaming
    /// identifier when it has one, else its name. A Composite's element, which no identifier
    /// renames, and an added attribute already warned of for its identifier are left out.
    static func lookalikeRenames(in plan: MigrationPlan, removals: [MigrationPlan.Removal], source: DataModel, destination: DataModel) -> [MigrationPlan.Warning] {
        var warnings: [MigrationPlan.Warning] = []
        for step in plan.entities {
            guard let origin = step.source, let old = source.entity(named: origin), let new = destination.entity(named: step.name) else { continue }
            for removed in step.properties where removed.change == .removed && !removed.name.contains(".") {
                guard let attribute = source.storedAttributes(of: old).first(where: { $0.name == removed.name }),
                      let held = removals.first(where: { $0.subject == .attribute(entity: origin, name: removed.name) })?.count, held > 0 else { continue }
                let identifier = attribute.renamingIdentifier ?? attribute.name
                for added in step.properties where !added.name.contains(".") {
                    let subject = "\(step.name).\(added.name)"
                    guard case .added = added.change, let twin = destination.storedAttributes(of: new).first(where: { $0.name == added.name }), twin.type == attribute.type,
                          !plan.warnings.contains(where: { $0.subject == subject && $0.reason == .identifierNamesAnotherElement }) else { continue }
                    let whose = identifier == attribute.name ? "" : " (\(removed.name)'s own renaming identifier, which Core Data matches)"
                    warnings.append(MigrationPlan.Warning(reason: .looksLikeRename, subject: subject,
                                                 message: "is added as \(origin).\(removed.name) (\(attribute.type.rawValue), \(held) value\(held == 1 ? "" : "s") in the store) is removed: "
                                                    + "if it is a rename, give \(added.name) the renaming identifier \(identifier)\(whose), or the values are dropped",
                                                 advisedIdentifier: identifier))
                }
            }
        }
        return warnings
    }
}
