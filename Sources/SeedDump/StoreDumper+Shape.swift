import SeedImport
import SeedModel
import SeedStore

extension StoreDumper {
    /// What the objects of `entity` carry, and the relationships written from their side.
    func shape(of entity: EntityDescription, _ reader: StoreReader, _ layout: StoreLayout,
              _ names: [String: [Int64: ObjectName]]) throws -> ObjectShape {
        let model = layout.model
        let table = layout.table(named: layout.entity(named: entity.name)!.table)!
        /// The index of a property's column in a row (`Z_PK`, `Z_ENT`, then the table's columns).
        func index(_ property: String) throws(DumpError) -> Int {
            guard let column = layout.column(for: property, of: entity.name),
                  let position = table.columns.firstIndex(where: { $0.name == column }) else {
                throw DumpError(description: "\(entity.name).\(property) has no column in \(table.name)")
            }
            return 2 + position
        }
        var shape = ObjectShape()
        for attribute in model.storedAttributes(of: entity) where !attribute.isTransient {
            let hasDefault = attribute.isOptional && (try? attribute.storedDefaultValue()) != nil
            shape.attributes.append((try index(attribute.name), attribute, hasDefault))
        }
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            let destination = layout.entity(named: relationship.destinationEntity)!
            let inverse = model.inverse(of: relationship)
            let owner = model.declaringEntity(of: relationship.name, from: entity)!
            if !relationship.isToMany {
                // Written here unless the other side writes it: an ordered list, or one side of a one-to-one.
                if let inverse, inverse.isToMany ? inverse.isOrdered : !Self.writesOneToOne(owner.name, relationship, model) { continue }
                shape.toOnes.append((relationship.name, try index(relationship.name), destination.table))
            } else if inverse.map({ !$0.isToMany }) ?? true {
                // The members' rows hold it: their to-ones say it, unless the list is ordered or
                // has no inverse (its owner's column is no property of theirs).
                guard relationship.isOrdered || inverse == nil else { continue }
                let columns = layout.memberColumns(for: relationship.name, of: entity.name)!
                shape.lists.append((relationship.name, try members(names, destination.table) { body throws in
                    try reader.forEachMember(in: destination.table, columns, body)
                }, destination.table))
            } else if let inverse, let side = layout.joinTableSide(for: relationship.name, of: entity.name) {
                // A many-to-many from its ordered side, else from the side its join table is named after.
                guard relationship.isOrdered != inverse.isOrdered ? relationship.isOrdered : side.isFirst else { continue }
                shape.lists.append((relationship.name, try members(names, destination.table) { body throws in
                    try reader.forEachJoinRow(side.table, holderIsFirst: side.isFirst, body)
                }, destination.table))
            }
        }
        return shape
    }

    /// What must come before what for keyed to-ones to point back: for each table (`byTable`) or
    /// concrete entity, the tables or entities of the keyed objects its to-ones name.
    func dependencies(_ shapes: [Int: ObjectShape], _ layout: StoreLayout, byTable: Bool) -> [String: Set<String>] {
        var after: [String: Set<String>] = [:]
        for (number, shape) in shapes {
            let source = layout.entity(number: number)!
            let description = layout.model.entity(named: source.name)!
            for toOne in shape.toOnes {
                let relationship = layout.model.allRelationships(of: description).first { $0.name == toOne.name }!
                let destination = layout.entity(named: relationship.destinationEntity)!
                guard NaturalKey.of(layout.model.entity(named: destination.name)!, in: layout.model, buildKeys: [:]) != nil else { continue }
                let named = byTable ? [destination.table]
                    : layout.entities.filter { destination.subtreeNumbers.contains($0.number) && !$0.isAbstract }.map(\.name)
                after[byTable ? source.table : source.name, default: []].formUnion(named)
            }
        }
        return after
    }

    /// `units` with each after the ones it depends on where that is possible (a unit that
    /// depends on itself, or a cycle, keeps its place in `units`), else in the order given.
    static func order(_ units: [String], after dependencies: [String: Set<String>]) -> [String] {
        var ordered: [String] = []
        var left = units
        while !left.isEmpty {
            let placed = Set(ordered)
            // The first unit whose dependencies (other than itself) are all placed; in a cycle, the first left.
            let next = left.firstIndex { unit in (dependencies[unit] ?? []).allSatisfy { $0 == unit || placed.contains($0) || !units.contains($0) } } ?? 0
            ordered.append(left.remove(at: next))
        }
        return ordered
    }

    /// Whether a one-to-one is written from `relationship`'s side: the side whose
    /// `Entity.relationship` sorts first.
    static func writesOneToOne(_ owner: String, _ relationship: RelationshipDescription, _ model: DataModel) -> Bool {
        guard let inverse = model.inverse(of: relationship),
              let destination = model.entity(named: relationship.destinationEntity),
              let inverseOwner = model.declaringEntity(of: inverse.name, from: destination) else { return true }
        return (owner, relationship.name) < (inverseOwner.name, inverse.name)
    }

    /// Each owner's members as identifiers, in the order `rows` gives (owner, member) pairs.
    private func members(_ names: [String: [Int64: ObjectName]], _ memberTable: String,
                         _ rows: (_ body: (Int64, Int64) throws -> Void) throws -> Void) throws -> [Int64: [String]] {
        var lists: [Int64: [String]] = [:]
        try rows { owner, member in
            guard let name = names[memberTable]?[member]?.identifier else {
                throw DumpError(description: "a relationship row points at \(memberTable) row \(member), which does not exist")
            }
            lists[owner, default: []].append(name)
        }
        return lists
    }
}
