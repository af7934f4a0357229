extension DataModel {
    /// Checks every cross-reference of the model; the first problem is thrown.
    func validate() throws(ModelError) {
        try validateNames()
        // Linear in the model's size whatever its inheritance depth (a chain of 1,000 entities).
        var acyclic: Set<String> = []
        for entity in entities {
            try validateInheritance(of: entity, known: &acyclic)
        }
        var declarers: [String: [(entity: EntityDescription, name: String, line: Int)]] = [:]
        for entity in entities {
            for (name, line) in entity.attributes.map({ ($0.name, $0.line) }) + entity.relationships.map({ ($0.name, $0.line) }) {
                declarers[name.uppercased(), default: []].append((entity, name, line))
            }
        }
        for entity in entities {
            try validateProperties(of: entity, declarers: declarers)
            for relationship in entity.relationships {
                try validate(relationship, of: entity)
            }
            try validateIndexesAndConstraints(of: entity)
            for fetched in entity.fetchedProperties where self.entity(named: fetched.entity) == nil {
                throw error(fetched.line, "fetched property '\(entity.name).\(fetched.name)' fetches unknown entity '\(fetched.entity)'")
            }
        }
        var templateNames = Set<String>()
        for template in fetchRequests {
            if !templateNames.insert(template.name).inserted {
                throw error(template.line, "duplicate fetch request template '\(template.name)'")
            }
            if entity(named: template.entity) == nil {
                throw error(template.line, "fetch request template '\(template.name)' names unknown entity '\(template.entity)'")
            }
        }
    }

    private func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: source, line: line, message: message)
    }

    /// Whether `name` is what Core Data accepts as an entity, property or index name: an ASCII
    /// letter or an underscore (SwiftData accepts `_channelName`; Xcode's editor alone refuses
    /// it), then ASCII letters, digits and underscores. Names become table, column and index
    /// names in the store, so nothing else may reach SQL.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first,
              first == UInt8(ascii: "_") || ((first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")) else { return false }
        return name.utf8.allSatisfy { byte in
            let lower = byte | 0x20
            return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }

    /// The store's own bookkeeping column a property named `name` would be stored in (`_pk` in
    /// `Z_PK`, `_fok_x` in `Z_FOK_X`), if it would be one.
    package static func bookkeepingColumn(named name: String) -> String? {
        let upper = name.uppercased()
        return ["_PK", "_ENT", "_OPT"].contains(upper) || upper.hasPrefix("_FOK_") ? "Z" + upper : nil
    }

    /// Every name is one Xcode accepts, and no two names map to the same table, column or
    /// index (Core Data upper-cases them: `Foo` and `FOO` would share the table `ZFOO`).
    private func validateNames() throws(ModelError) {
        func check(_ name: String, _ kind: String, of entity: String? = nil, _ line: Int) throws(ModelError) {
            guard Self.isValidName(name) else {
                let owner = entity.map { " of entity '\($0)'" } ?? ""
                throw error(line, "\(kind) name '\(name)'\(owner) is not valid: a name starts with a letter or an underscore and holds only letters, digits and underscores (A-Z, a-z, 0-9, _)")
            }
            if let entity, let column = Self.bookkeepingColumn(named: name) {
                throw error(line, "\(kind) name '\(name)' of entity '\(entity)' would be the column '\(column)', which the store keeps for its own bookkeeping")
            }
        }
        var entityNames: [String: EntityDescription] = [:]
        // In file order, so that the error names the second of two clashing entities.
        for entity in entities.sorted(by: { $0.line < $1.line }) {
            try check(entity.name, "entity", entity.line)
            if let other = entityNames.updateValue(entity, forKey: entity.name.uppercased()), other.name != entity.name {
                throw error(entity.line, "entity names '\(other.name)' and '\(entity.name)' differ only in case; both would be stored in the table 'Z\(entity.name.uppercased())'")
            }
            for attribute in entity.attributes { try check(attribute.name, "attribute", of: entity.name, attribute.line) }
            for relationship in entity.relationships { try check(relationship.name, "relationship", of: entity.name, relationship.line) }
            for fetched in entity.fetchedProperties { try check(fetched.name, "fetched property", of: entity.name, fetched.line) }
            var indexNames: [String: String] = [:]
            for index in entity.fetchIndexes {
                try check(index.name, "fetch index", of: entity.name, index.line)
                if let other = indexNames.updateValue(index.name, forKey: index.name.uppercased()) {
                    throw error(index.line, "entity '\(entity.name)' has two fetch indexes named '\(other)' and '\(index.name)'; both would be the index 'Z_\(entity.name)_\(index.name)'")
                }
            }
        }
    }

    /// Every parent exists and no entity is its own ancestor; `known` holds entities whose
    /// lineage was already walked to a root, so each entity is walked once.
    private func validateInheritance(of entity: EntityDescription, known: inout Set<String>) throws(ModelError) {
        var seen: Set<String> = [entity.name]
        var walked = [entity.name]
        var current = entity
        while !known.contains(current.name), let parentName = current.parentName {
            guard let parent = self.entity(named: parentName) else {
                throw error(current.line, "entity '\(current.name)' has unknown parent entity '\(parentName)'")
            }
            if !seen.insert(parent.name).inserted {
                throw error(entity.line, "cyclic inheritance: entity '\(entity.name)' is its own ancestor")
            }
            walked.append(parent.name)
            current = parent
        }
        known.formUnion(walked)
    }

    /// No property repeats (in any case) one of the entity's own or inherited ones. `declarers`
    /// lists, by upper-cased name, every entity that declares a property of that name, so only
    /// the few entities sharing a name are compared (Core Data's column names are upper-cased).
    private func validateProperties(of entity: EntityDescription,
                                    declarers: [String: [(entity: EntityDescription, name: String, line: Int)]]) throws(ModelError) {
        var seen: [String: (name: String, line: Int)] = [:]
        let own = entity.attributes.map { ($0.name, $0.line) } + entity.relationships.map { ($0.name, $0.line) }
            + entity.fetchedProperties.map { ($0.name, $0.line) }
        for (name, _) in own {
            for other in declarers[name.uppercased()] ?? [] where other.entity.name != entity.name && self.entity(entity, isKindOf: other.entity) {
                seen[name.uppercased()] = (other.name, 0)
            }
        }
        for (name, line) in own {
            if let previous = seen[name.uppercased()] {
                if previous.name != name {
                    throw error(line, "entity '\(entity.name)' has properties '\(previous.name)' and '\(name)', which differ only in case; both would be the column 'Z\(name.uppercased())'")
                }
                let what = previous.line == 0 ? "redeclares an inherited property" : "has two properties named"
                throw error(line, "entity '\(entity.name)' \(what) '\(name)'")
            }
            seen[name.uppercased()] = (name, max(line, 1))
        }
    }

    private func validate(_ relationship: RelationshipDescription, of entity: EntityDescription) throws(ModelError) {
        let label = "relationship '\(entity.name).\(relationship.name)'"
        guard let destination = self.entity(named: relationship.destinationEntity) else {
            throw error(relationship.line, "\(label) has unknown destination entity '\(relationship.destinationEntity)'")
        }
        if relationship.minCount < 0 || relationship.maxCount < 0
            || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount) {
            throw error(relationship.line, "\(label) has impossible counts min \(relationship.minCount), max \(relationship.maxCount)")
        }
        guard let inverseName = relationship.inverseName else {
            if let inverseEntity = relationship.inverseEntity {
                throw error(relationship.line, "\(label) names inverseEntity '\(inverseEntity)' but no inverseName")
            }
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destination.name {
            throw error(relationship.line, "\(label) has inverseEntity '\(inverseEntity)' but its destination is '\(destination.name)'")
        }
        guard let inverse = allRelationships(of: destination).first(where: { $0.name == inverseName }) else {
            throw error(relationship.line, "\(label) has inverse '\(inverseName)', which entity '\(destination.name)' does not have")
        }
        let pointsBack = inverse.inverseName == relationship.name
            && self.entity(named: inverse.destinationEntity).map { self.entity(entity, isKindOf: $0) } == true
        if !pointsBack {
            let found = inverse.inverseName.map { "'\(inverse.destinationEntity).\($0)'" } ?? "nothing"
            throw error(relationship.line, "\(label) has inverse '\(destination.name).\(inverseName)', whose inverse is \(found), not '\(entity.name).\(relationship.name)'")
        }
    }

    private func validateIndexesAndConstraints(of entity: EntityDescription) throws(ModelError) {
        guard !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty else { return }
        let attributes = allAttributes(of: entity).map(\.name)
        let properties = Set(attributes + allRelationships(of: entity).map(\.name))
        for constraint in entity.uniquenessConstraints {
            if constraint.isEmpty {
                throw error(entity.line, "entity '\(entity.name)' has an empty uniqueness constraint")
            }
            for name in constraint where !properties.contains(name) {
                throw error(entity.line, "uniqueness constraint of entity '\(entity.name)' names unknown property '\(name)'")
            }
        }
        for index in entity.compoundIndexes {
            if index.properties.isEmpty {
                throw error(index.line, "compound index of entity '\(entity.name)' has no properties")
            }
            for name in index.properties where !properties.contains(name) {
                throw error(index.line, "compound index of entity '\(entity.name)' names unknown property '\(name)'")
            }
        }
        for index in entity.fetchIndexes {
            if index.elements.isEmpty {
                throw error(index.line, "fetch index '\(entity.name).\(index.name)' has no elements")
            }
            for element in index.elements {
                if let name = element.property, !properties.contains(name) {
                    throw error(index.line, "fetch index '\(entity.name).\(index.name)' names unknown property '\(name)'")
                }
            }
        }
    }
}
