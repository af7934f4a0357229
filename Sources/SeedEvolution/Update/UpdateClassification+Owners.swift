import SeedModel
import SeedStore

extension UpdateClassification {
    /// The to-one columns of the concrete `entity` through which an object has an owner whose
    /// deletion takes it too, or without which the model does not let it be: a required to-one,
    /// a to-one whose inverse to-many deletes by cascade, and the owner column of a to-many
    /// without an inverse that deletes by cascade.
    func ownerColumns(of entity: EntityLayout) -> [(column: String, owner: EntityLayout)] {
        let model = store.model
        guard let description = model.entity(named: entity.name) else { return [] }
        let lineage = Set(model.lineage(of: description).map(\.name))
        return SeedRecord.columns(of: entity, in: store, positions: false).compactMap { column in
            switch column.role {
            case .foreignKey(let declaring, let name, let destination):
                guard lineage.contains(declaring), let owner = store.entity(named: destination),
                      let relationship = model.entity(named: declaring).flatMap({ model.allRelationships(of: $0).first { $0.name == name } }) else { return nil }
                let cascades = model.inverse(of: relationship)?.deletionRule == .cascade
                return !relationship.isOptional || cascades ? (column.name, owner) : nil
            case .ownerKey(_, let ownerName, let name):
                guard let owner = store.entity(named: ownerName),
                      let relationship = model.entity(named: ownerName).flatMap({ model.allRelationships(of: $0).first { $0.name == name } }),
                      relationship.deletionRule == .cascade else { return nil }
                return (column.name, owner)
            case .attribute, .foreignEntity, .foreignOrder:
                return nil
            }
        }
    }

    /// Marks the objects the new seed adds whose owner (`ownerColumns`) the user deleted, or is
    /// itself marked so (a grandchild of a deleted owner), `Fate.ownerDeleted`: they are not
    /// inserted and take no `Z_PK`, and the report names them. Before the new objects are numbered.
    func markOwnerDeleted() throws {
        let marked = Fate.ownerDeleted.sql, added = Fate.add.sql, deleted = Fate.deleted.sql
        var statements: [String] = []
        for entity in concreteEntities {
            for (column, owner) in ownerColumns(of: entity) {
                statements.append("""
                    UPDATE temp.\(Scratch.newObjects) SET FATE = \(marked) WHERE TABLE_NUMBER = \(tableNumber(entity.table)) AND ENTITY = \(entity.number) AND FATE = \(added)
                      AND SEED_PK IN (SELECT n.Z_PK FROM seed.\(table(entity)) n JOIN temp.\(Scratch.newObjects) o ON o.TABLE_NUMBER = \(tableNumber(owner.table)) AND o.SEED_PK = n.\(Database.quote(column))
                                  WHERE n.Z_ENT = \(entity.number) AND o.FATE IN (\(deleted), \(marked)))
                    """)
            }
        }
        guard !statements.isEmpty, try database.scalar("SELECT 1 FROM temp.\(Scratch.newObjects) WHERE FATE = \(deleted) LIMIT 1") != nil else { return }
        // Down the ownership, a level a pass: each pass marks at least one object or ends.
        while true {
            var changes = 0
            for statement in statements {
                try database.execute(statement)
                changes += database.changes
            }
            if changes == 0 { return }
        }
    }
}
