import SeedModel

extension LayoutBuilder {
    /// Creation order: each root table and its join tables, then the indexes entity by entity,
    /// then the bookkeeping tables.
    mutating func collectSchema() throws(LayoutError) {
        for table in tables {
            schema.append(table.createSQL)
            for entity in ordered where model.root(of: entity).name == table.rootEntity {
                for join in joinTables where join.entity == entity.name {
                    schema.append(join.createSQL)
                }
            }
        }
        for entity in ordered {
            let table = Self.tableName(model.root(of: entity).name)
            for column in columnIndexes[entity.name] ?? [] {
                addIndex("\(table)_\(column)_INDEX", on: table, "CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
            }
            for join in joinTables where join.entity == entity.name {
                addIndex(join.index.name, on: join.name, join.index.createSQL)
            }
            if entity.parentName == nil && !model.subentities(of: entity).isEmpty {
                addIndex("\(table)_Z_ENT_INDEX", on: table, "CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
            }
            if !era.namesCompoundIndexesByEntity {
                for index in entity.compoundIndexes {
                    let columns = try compoundIndexColumns(index, of: entity)
                    let name = "\(table)_\(columns.joined(separator: "_"))"
                    addIndex(name, on: table, "CREATE INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))")
                }
            }
            if era.namesAttributeIndexesByEntity {
                for attribute in indexedAttributes(of: entity) {
                    let column = StoreLayout.column(for: attribute, of: entity, in: columnsByProperty, model: model)!
                    let name = "Z_\(entity.name)_\(attribute)"
                    addIndex(name, on: table, "CREATE INDEX \(name) ON \(table) (\(column) COLLATE BINARY ASC)")
                }
            }
            if era.namesCompoundIndexesByEntity {
                // Seen in a migrated store (851), where its place among the indexes is lost: assumed
                // after the attribute indexes, before the model's fetch indexes.
                for index in entity.compoundIndexes {
                    let columns = try compoundIndexColumns(index, of: entity)
                    let name = "Z_\(entity.name)_\(index.properties.joined(separator: "_"))"
                    addIndex(name, on: table, "CREATE INDEX \(name) ON \(table) (\(columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")))")
                }
            }
            for fetchIndex in entity.fetchIndexes {
                var parts: [String] = []
                for element in fetchIndex.elements {
                    guard element.kind == "Binary", let property = element.property,
                          let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model)
                    else {
                        throw unsupported(fetchIndex.line, "fetch index '\(entity.name).\(fetchIndex.name)' uses an expression, an R-tree or a to-many; its store layout is not known")
                    }
                    parts.append("\(column) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")")
                }
                let name = "Z_\(entity.name)_\(fetchIndex.name)"
                addIndex(name, on: table, "CREATE INDEX \(name) ON \(table) (\(parts.joined(separator: ", ")))")
            }
            if !era.writesUniquenessAsTableConstraint {
                for constraint in entity.uniquenessConstraints {
                    var parts: [String] = []
                    for property in constraint {
                        guard let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model) else {
                            throw unsupported(entity.line, "uniqueness constraint of '\(entity.name)' names '\(property)', which has no column")
                        }
                        parts.append("\(column) COLLATE BINARY ASC")
                    }
                    let name = "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))"
                    addIndex(name, on: table, "CREATE UNIQUE INDEX \(name) ON \(table) (\(parts.joined(separator: ", ")))")
                }
            }
        }
        schema += [StoreLayout.primaryKeyTableSQL, StoreLayout.metadataTableSQL]
    }

    /// The attributes `entity` gets a `Z_<Entity>_<attribute>` index for (eras from 836):
    /// the attribute of each one-element fetch index named `by` + the attribute's name (in any
    /// case: `byURL` for `url`), in file order — the store then has both indexes — then its
    /// `indexed="YES"` attributes by name: its own, and from 865 the inherited ones too (that
    /// order is *assumed*). A one-element fetch index named otherwise (`domainIndex` for
    /// `domain`) indexes only itself. The naming rule is *assumed*: it is the one difference seen
    /// between five such fetch indexes with both indexes (frameworks 1251–1338) and one without
    /// (1338), on attributes optional or not, String or Boolean.
    func indexedAttributes(of entity: EntityDescription) -> [String] {
        var names: [String] = []
        for index in entity.fetchIndexes where index.elements.count == 1 {
            if let property = index.elements[0].property, index.elements[0].kind == "Binary",
               index.name.lowercased() == "by" + property.lowercased(),
               model.allAttributes(of: entity).contains(where: { $0.name == property && !$0.isTransient }),
               !names.contains(property) {
                names.append(property)
            }
        }
        let declared = era.indexesInheritedAttributesPerEntity ? model.allAttributes(of: entity) : entity.attributes
        for attribute in declared where attribute.isIndexed && !attribute.isTransient && !names.contains(attribute.name) {
            names.append(attribute.name)
        }
        return names
    }

    /// The columns of a legacy compound index, in its order.
    private func compoundIndexColumns(_ index: CompoundIndexDescription, of entity: EntityDescription) throws(LayoutError) -> [String] {
        var columns: [String] = []
        for property in index.properties {
            guard let column = StoreLayout.column(for: property, of: entity, in: columnsByProperty, model: model) else {
                throw unsupported(index.line, "compound index of '\(entity.name)' names '\(property)', which has no column")
            }
            columns.append(column)
        }
        return columns
    }
}
