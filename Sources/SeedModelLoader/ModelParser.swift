import SeedModel
/// Turns the XML of a model's `contents` file into a `DataModel`.
enum ModelParser {
    static func parse(_ bytes: [UInt8], file: String) throws(ModelError) -> DataModel {
        let root: XMLElementNode
        do {
            root = try XMLTreeReader.parse(bytes, url: file)
        } catch {
            let column = error.column > 0 ? ":\(error.column)" : ""
            throw ModelError(file: file, line: error.line, message: "malformed XML\(column): \(error.message)")
        }
        let reader = Reader(file: file)
        guard root.name == "model" else {
            throw reader.error(root, "the root element is <\(root.name)>, not <model>: not a Core Data model")
        }
        var entities: [EntityDescription] = []
        var templates: [FetchRequestTemplate] = []
        for child in root.children {
            switch child.name {
            case "entity": entities.append(try reader.entity(child))
            case "fetchRequest": templates.append(try reader.fetchRequest(child))
            default: continue  // configuration, elements (diagram layout), composite
            }
        }
        return try DataModel(
            entities: entities, fetchRequests: templates,
            versionIdentifier: root["userDefinedModelVersionIdentifier"] ?? "", source: file
        )
    }

    /// Reads one kind of element each; every error names the file and line.
    private struct Reader {
        let file: String

        func error(_ node: XMLElementNode, _ message: String) -> ModelError {
            ModelError(file: file, line: node.line, message: message)
        }

        func required(_ node: XMLElementNode, _ name: String) throws(ModelError) -> String {
            guard let value = node[name], !value.isEmpty else {
                throw error(node, "<\(node.name)> has no '\(name)'")
            }
            return value
        }

        func flag(_ node: XMLElementNode, _ name: String) throws(ModelError) -> Bool {
            guard let value = node[name] else { return false }
            switch value.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: throw error(node, "'\(name)' of <\(node.name)> is '\(value)', not YES or NO")
            }
        }

        func integer(_ node: XMLElementNode, _ name: String) throws(ModelError) -> Int? {
            guard let value = node[name] else { return nil }
            guard let number = Int(value) else {
                throw error(node, "'\(name)' of <\(node.name)> is '\(value)', not a whole number")
            }
            return number
        }

        func real(_ node: XMLElementNode, _ name: String) throws(ModelError) -> Double? {
            guard let value = node[name] else { return nil }
            guard let number = Double(value), number.isFinite else {
                throw error(node, "'\(name)' of <\(node.name)> is '\(value)', not a number")
            }
            return number
        }

        func userInfo(_ node: XMLElementNode) throws(ModelError) -> [String: String] {
            var info: [String: String] = [:]
            for block in node.children(named: "userInfo") {
                for entry in block.children(named: "entry") {
                    info[try required(entry, "key")] = entry["value"] ?? ""
                }
            }
            return info
        }

        func entity(_ node: XMLElementNode) throws(ModelError) -> EntityDescription {
            let name = try required(node, "name")
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var fetched: [FetchedPropertyDescription] = []
            var indexes: [FetchIndexDescription] = []
            var constraints: [[String]] = []
            var compoundIndexes: [CompoundIndexDescription] = []
            for child in node.children {
                switch child.name {
                case "attribute": attributes.append(try attribute(child))
                case "relationship": relationships.append(try relationship(child))
                case "fetchedProperty": fetched.append(try fetchedProperty(child))
                case "fetchIndex": indexes.append(try fetchIndex(child))
                case "uniquenessConstraints":
                    for constraint in child.children(named: "uniquenessConstraint") {
                        var names: [String] = []
                        for element in constraint.children(named: "constraint") {
                            names.append(try required(element, "value"))
                        }
                        constraints.append(names)
                    }
                case "compoundIndexes":
                    for index in child.children(named: "compoundIndex") {
                        var names: [String] = []
                        for element in index.children(named: "index") {
                            names.append(try required(element, "value"))
                        }
                        compoundIndexes.append(CompoundIndexDescription(properties: names, line: index.line))
                    }
                default: continue
                }
            }
            var entity = EntityDescription(
                name: name, parentName: node["parentEntity"], isAbstract: try flag(node, "isAbstract"),
                versionHashModifier: node["versionHashModifier"], renamingIdentifier: node["elementID"],
                userInfo: try userInfo(node), attributes: attributes, relationships: relationships,
                fetchedProperties: fetched, fetchIndexes: indexes, uniquenessConstraints: constraints, line: node.line
            )
            entity.compoundIndexes = compoundIndexes
            return entity
        }

        func attribute(_ node: XMLElementNode) throws(ModelError) -> AttributeDescription {
            let name = try required(node, "name")
            let isTransient = try flag(node, "transient")
            // Xcode writes a transient attribute of type "Undefined" with no attributeType at all.
            let typeName = isTransient ? node["attributeType"] ?? AttributeType.undefined.rawValue : try required(node, "attributeType")
            guard let type = AttributeType(rawValue: typeName) else {
                throw error(node, "attribute '\(name)' has unknown attribute type '\(typeName)'")
            }
            if type == .composite {
                throw error(node, "attribute '\(name)' is a Composite attribute; how Core Data stores and hashes one has not been read off a real store, so seedgen refuses it rather than guess")
            }
            if try flag(node, "derived") {
                throw error(node, "attribute '\(name)' is derived (derivationExpression); its part in the entity version hash is not known, so seedgen refuses it rather than guess")
            }
            var attribute = AttributeDescription(
                name: name, type: type, isOptional: try flag(node, "optional"),
                isTransient: isTransient,
                defaultValue: node["defaultValueString"] ?? node["defaultDateTimeInterval"],
                versionHashModifier: node["versionHashModifier"],
                allowsExternalBinaryDataStorage: try flag(node, "allowsExternalBinaryDataStorage"),
                preserveAfterDeletion: try flag(node, "preserveAfterDeletion"),
                isIndexed: try flag(node, "indexed"), userInfo: try userInfo(node), line: node.line
            )
            attribute.renamingIdentifier = node["elementID"]
            attribute.validation = AttributeDescription.Validation(
                minimum: node["minValueString"], maximum: node["maxValueString"],
                earliest: try real(node, "minDateTimeInterval"), latest: try real(node, "maxDateTimeInterval"),
                pattern: node["regularExpressionString"])
            return attribute
        }

        func relationship(_ node: XMLElementNode) throws(ModelError) -> RelationshipDescription {
            let name = try required(node, "name")
            var rule = RelationshipDescription.DeletionRule.nullify
            if let value = node["deletionRule"] {
                guard let known = RelationshipDescription.DeletionRule(rawValue: value) else {
                    throw error(node, "relationship '\(name)' has unknown deletion rule '\(value)'")
                }
                rule = known
            }
            let isToMany = try flag(node, "toMany")
            var relationship = RelationshipDescription(
                name: name, destinationEntity: try required(node, "destinationEntity"),
                inverseName: node["inverseName"], inverseEntity: node["inverseEntity"],
                isToMany: isToMany, isOrdered: try flag(node, "ordered"),
                isOptional: try flag(node, "optional"), isTransient: try flag(node, "transient"),
                minCount: try integer(node, "minCount") ?? 0, maxCount: try integer(node, "maxCount"),
                deletionRule: rule, versionHashModifier: node["versionHashModifier"],
                userInfo: try userInfo(node), line: node.line
            )
            relationship.renamingIdentifier = node["elementID"]
            return relationship
        }

        func fetchedProperty(_ node: XMLElementNode) throws(ModelError) -> FetchedPropertyDescription {
            let name = try required(node, "name")
            guard let request = node.children(named: "fetchRequest").first else {
                throw error(node, "fetched property '\(name)' has no <fetchRequest>")
            }
            return FetchedPropertyDescription(
                name: name, entity: try required(request, "entity"),
                predicate: request["predicateString"], line: node.line
            )
        }

        func fetchIndex(_ node: XMLElementNode) throws(ModelError) -> FetchIndexDescription {
            var elements: [FetchIndexDescription.Element] = []
            for element in node.children(named: "fetchIndexElement") {
                let property = element["property"]
                let expression = element["expression"]
                if property == nil && expression == nil {
                    throw error(element, "<fetchIndexElement> has neither 'property' nor 'expression'")
                }
                let order = element["order"] ?? "ascending"
                guard order == "ascending" || order == "descending" else {
                    throw error(element, "<fetchIndexElement> has order '\(order)', not ascending or descending")
                }
                elements.append(.init(
                    property: property, expression: expression,
                    kind: element["type"] ?? "Binary", isAscending: order == "ascending"
                ))
            }
            return FetchIndexDescription(name: try required(node, "name"), elements: elements, line: node.line)
        }

        func fetchRequest(_ node: XMLElementNode) throws(ModelError) -> FetchRequestTemplate {
            // Xcode writes includeSubentities; other tools write includesSubentities.
            let includesKey = node["includeSubentities"] != nil ? "includeSubentities" : "includesSubentities"
            return FetchRequestTemplate(
                name: try required(node, "name"), entity: try required(node, "entity"),
                predicate: node["predicateString"], fetchLimit: try integer(node, "fetchLimit"),
                includesSubentities: node[includesKey] == nil ? nil : try flag(node, includesKey),
                line: node.line
            )
        }
    }
}
