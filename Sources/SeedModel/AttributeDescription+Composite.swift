extension AttributeDescription {
    /// The attributes whose values a store holds for this one: itself, or for a Composite one
    /// per element, named by its path (`author.person`), with the element's type and flags. A
    /// Composite whose one element is named like it (a raw-value enum's) is its element under
    /// the Composite's own name (`glasswareType`): the value a source gives for the property;
    /// it holds the enum's cases and is required when the property is (the model's element is
    /// optional either way, and hashed so; real stores hold a value in every row of a
    /// non-optional enum). Each element of an enum without raw values holds its case alone,
    /// whose name is its one value.
    package var storedAttributes: [AttributeDescription] {
        guard let elements else { return [self] }
        let alone = elements.count == 1 && elements[0].name == name
        return elements.map { element in
            var stored = element
            stored.name = alone ? name : name + "." + element.name
            if alone {
                stored.declaredValue = declaredValue
                stored.isOptional = isOptional
            } else if let member = declaredValue?.cases?.first(where: { $0.name == element.name }) {
                stored.declaredValue = .enumeration([member])
            }
            stored.line = line
            stored.isTransient = isTransient
            return stored
        }
    }

    /// For a Composite: the stored names (`storedAttributes`) of the elements every value of it
    /// must give (`isRequiredInValue`), none when the Composite is required itself (its
    /// elements are required then) or holds no such element.
    package var namesRequiredInValue: [String] {
        guard let elements, !(elements.count == 1 && elements[0].name == name) else { return [] }
        return elements.filter { $0.isRequiredInValue == true }.map { name + "." + $0.name }
    }
}

extension EntityDescription {
    /// The own stored attribute with this name: an attribute, or a Composite's element by its
    /// path (`storedAttributes`).
    package func storedAttribute(named name: String) -> AttributeDescription? {
        for attribute in attributes {
            if attribute.elements == nil {
                if attribute.name == name { return attribute }
            } else if name == attribute.name || name.hasPrefix(attribute.name + ".") {
                if let found = attribute.storedAttributes.first(where: { $0.name == name }) { return found }
            }
        }
        return nil
    }
}

extension DataModel {
    /// The entity's stored attributes, inherited ones included and Composites given by their
    /// elements (`AttributeDescription.storedAttributes`), sorted by name.
    package func storedAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        allAttributes(of: entity).flatMap(\.storedAttributes).sorted { Self.namePrecedes($0.name, $1.name) }
    }
}
