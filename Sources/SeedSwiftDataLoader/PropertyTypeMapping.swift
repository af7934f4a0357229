import SeedModel

/// The Core Data attribute a stored property of a value type becomes, as SwiftData makes it;
/// the evidence for each row is SwiftDataModels.md's table (a real store, Apple's
/// documentation, or *assumed*).
struct PropertyTypeMapping {
    let namespace: TypeNamespace

    /// A property's type, resolved from inside `scope` (its class's or struct's path): its
    /// annotation, or what Swift infers from its initial value alone; anything else is refused
    /// at the initial value, asking for an annotation.
    func type(of property: PropertyDeclaration, in scope: [String]) throws(ModelError) -> ResolvedType {
        if let annotation = property.annotation {
            return try namespace.resolve(annotation, from: scope, place: property.typePlace)
        }
        if let initial = property.initial, let type = try namespace.inferredType(of: initial, from: scope, place: property.typePlace) {
            return type
        }
        throw property.typePlace.error("property '\(property.name)' has no type annotation, and Swift gives its initial value a type only from context or code: write its type (`var \(property.name): T = …`)")
    }

    /// The attribute `property` (of type `type`) declares; a type whose stored form is not
    /// known is refused at the place its type is written.
    func attribute(for property: PropertyDeclaration, type: ResolvedType) throws(ModelError) -> AttributeDescription {
        if property.relationship != nil {
            throw property.place.error("@Relationship on '\(property.name)', whose type is no @Model class of the sources")
        }
        let options = property.attribute ?? AttributeOptions()
        let (base, isOptional) = type.unwrapped
        var attribute = AttributeDescription(
            name: property.name, type: .undefined, isOptional: isOptional, isTransient: options.isEphemeral,
            versionHashModifier: options.hashModifier,
            allowsExternalBinaryDataStorage: options.allowsExternalStorage,
            preserveAfterDeletion: options.preservesValueOnDeletion, line: property.place.line
        )
        attribute.renamingIdentifier = options.originalName
        switch base {
        case .standard(let name) where StandardTypes.scalars[name] != nil:
            attribute.type = StandardTypes.scalars[name]!
            attribute.defaultValue = property.literalDefault
        case .array(let element):
            try requireValue(element, of: property.name, at: property.typePlace, what: "an array's elements")
            attribute.type = .transformable
            if element == .standard("String") || element == .standard("Substring") {
                attribute.declaredValue = .stringArray
                attribute.defaultValue = property.literalDefault  // `= []`, `= ["a"]`: as JSON text
            }
        case .set(let element):
            // Assumed: a Transformable, as an array (no real store shows one).
            try requireValue(element, of: property.name, at: property.typePlace, what: "a set's elements")
            attribute.type = .transformable
        case .dictionary(let key, let value):
            // Assumed: a Transformable, as an array (no real store shows one).
            try requireValue(key, of: property.name, at: property.typePlace, what: "a dictionary's keys")
            try requireValue(value, of: property.name, at: property.typePlace, what: "a dictionary's values")
            attribute.type = .transformable
        default:
            attribute.type = .composite
            (attribute.elements, attribute.declaredValue) = try composite(base, isOptional: isOptional, property: property, depth: 0)
            if case .enumeration(let values)? = attribute.declaredValue, let initial = property.initial?.caseName,
               attribute.elements?.count == 1, let raw = values.first(where: { $0.name == initial }) {
                // `var mood: Mood = .calm`: new objects take the case's raw value (a static
                // member, `= Chain.example`, is app code: no default is written).
                attribute.elements?[0].defaultValue = raw.rawValue
            } else if case .enumeration(let values)? = attribute.declaredValue, let initial = property.initial?.caseName,
                      !values.contains(where: { $0.name == initial }), !namespace.hasStaticMember(initial, of: base) {
                throw property.place.error("'\(property.name)' starts as '.\(initial)', which is no case or static member of its enum")
            }
        }
        if options.allowsExternalStorage, ![.binary, .transformable].contains(attribute.type) {
            throw property.place.error("@Attribute(.externalStorage) on '\(property.name)': Core Data stores outside the row only Data and transformable values (arrays); how SwiftData treats it on a \(attribute.type == .composite ? "Codable struct or enum" : "value of this type") is not known here")
        }
        return attribute
    }

    /// Refuses a type that is no value SwiftData stores: a framework type seedgen cannot know,
    /// a tuple or function, a `@Model` class inside a value.
    private func requireValue(_ type: ResolvedType, of name: String, at place: SourcePlace, what: String) throws(ModelError) {
        switch type {
        case .unknown(let type): throw unknownType(type, at: place)
        case .unsupported(let text): throw place.error("'\(text)' as \(what): SwiftData stores no such type")
        case .model: throw place.error("\(what) of '\(name)' mix @Model classes into a value")
        case .optional(let wrapped): try requireValue(wrapped, of: name, at: place, what: what)
        default: return
        }
    }

    private func unknownType(_ name: String, at place: SourcePlace) -> ModelError {
        place.error("'\(name)' is neither a type of these sources nor one SwiftData stores natively (\(StandardTypes.summary)); if it comes from a framework or another package, seedgen cannot know its stored form: give its declaration's source under --model, or store the value as Data")
    }

    private typealias Element = AttributeDescription

    /// A Composite's elements (a struct's stored properties, an enum's raw value or cases,
    /// nested for members that are structs or enums themselves), and for an enum its cases.
    private func composite(_ type: ResolvedType, isOptional: Bool, property: PropertyDeclaration, depth: Int) throws(ModelError) -> ([Element], DeclaredValue?) {
        guard depth < TypeNamespace.depthLimit else {
            throw property.typePlace.error("'\(property.name)' nests Codable types more than \(TypeNamespace.depthLimit) levels deep (a type that holds itself?)")
        }
        func element(_ name: String, _ type: AttributeType, optional: Bool) -> Element {
            AttributeDescription(name: name, type: type, isOptional: optional, line: property.place.line)
        }
        switch type {
        case .standard(let name):
            guard let known = StandardTypes.composites[name] else { throw unknownType(name, at: property.typePlace) }
            return (known.map { element($0.0, $0.1, optional: isOptional) }, nil)
        case .unknown(let name):
            throw unknownType(name, at: property.typePlace)
        case .unsupported(let text):
            throw property.typePlace.error("'\(text)': SwiftData stores no such type (\(StandardTypes.summary))")
        case .model:
            throw property.typePlace.error("a @Model class inside a Codable value of '\(property.name)': SwiftData stores relationships only as properties of a @Model class")
        case .optional, .array, .set, .dictionary:
            throw property.typePlace.error("'\(property.name)': its stored form is not known here")
        case .value(let index):
            let declaration = namespace.declarations.valueTypes[index]
            if let failure = declaration.failure { throw failure }
            let scope = namespace.valuePaths[index]
            switch declaration.kind {
            case .other(let keyword):
                throw property.typePlace.error("'\(declaration.name)' is a\(keyword == "actor" ? "n" : "") \(keyword) that is no @Model (\(declaration.place)): SwiftData stores a class only as a @Model relationship, and values as Codable structs and enums")
            case .enumeration(let rawType, let cases):
                return try enumeration(declaration, rawType: rawType, cases: cases, scope: scope, property: property, depth: depth)
            case .structure(let members):
                guard !members.isEmpty else { throw property.typePlace.error("'\(declaration.name)' has no stored property (\(declaration.place))") }
                var elements: [Element] = []
                for member in members {
                    let memberType = try self.type(of: member, in: scope)
                    elements.append(try self.member(member.name, type: memberType, place: member.typePlace, outerOptional: isOptional, property: property, depth: depth))
                }
                return (elements, nil)
            }
        }
    }

    /// One element of a Composite: a scalar, an array or dictionary as JSON in a Binary element
    /// (real stores), or a nested Composite.
    private func member(_ name: String, type: ResolvedType, place: SourcePlace, outerOptional: Bool, property: PropertyDeclaration, depth: Int) throws(ModelError) -> Element {
        let (base, optional) = type.unwrapped
        let isOptional = outerOptional || optional
        var element = AttributeDescription(name: name, type: .undefined, isOptional: isOptional, line: property.place.line)
        if outerOptional && !optional { element.isRequiredInValue = true }
        switch base {
        case .standard(let scalar) where StandardTypes.scalars[scalar] != nil:
            element.type = StandardTypes.scalars[scalar]!
        case .array(let inner), .set(let inner):
            try requireValue(inner, of: name, at: place, what: "an array's elements")
            element.type = .binary
            element.declaredValue = .jsonArray
        case .dictionary(let key, let value):
            try requireValue(key, of: name, at: place, what: "a dictionary's keys")
            try requireValue(value, of: name, at: place, what: "a dictionary's values")
            element.type = .binary
        default:
            var inner = property
            inner.typePlace = place
            element.type = .composite
            (element.elements, element.declaredValue) = try composite(base, isOptional: isOptional, property: inner, depth: depth + 1)
        }
        return element
    }

    /// An enum's Composite: with a raw value, one optional element named like the property of
    /// the raw type; without, one optional String element per case; a case that carries values
    /// is a Composite of its values, labelled or `_0`, `_1`… (the SpeziScheduler store).
    private func enumeration(_ declaration: ValueTypeDeclaration, rawType: DeclaredType?, cases: [ValueTypeDeclaration.EnumCaseDeclaration],
                             scope: [String], property: PropertyDeclaration, depth: Int) throws(ModelError) -> ([Element], DeclaredValue?) {
        guard !cases.isEmpty else { throw property.typePlace.error("'\(declaration.name)' has no cases (\(declaration.place))") }
        let carriesValues = cases.contains { $0.associatedValues != nil }
        if !carriesValues, let rawType, case .standard(let raw) = try namespace.resolve(rawType, from: scope, place: declaration.place),
           let type = StandardTypes.scalars[raw] {
            // Always optional, even for a non-optional property (real stores).
            let values = try Self.rawValues(of: cases, type: type, enumeration: declaration.name)
            return ([AttributeDescription(name: property.name, type: type, isOptional: true, line: property.place.line)], .enumeration(values))
        }
        var elements: [Element] = []
        for declared in cases {
            guard let values = declared.associatedValues else {
                elements.append(AttributeDescription(name: declared.name, type: .string, isOptional: true, line: property.place.line))
                continue
            }
            var caseElement = AttributeDescription(name: declared.name, type: .composite, isOptional: true, line: property.place.line)
            var inner: [Element] = []
            for (position, value) in values.enumerated() {
                let type = try namespace.resolve(value.type, from: scope, place: value.place)
                inner.append(try member(value.label ?? "_\(position)", type: type, place: value.place, outerOptional: true, property: property, depth: depth + 1))
            }
            caseElement.elements = inner
            elements.append(caseElement)
        }
        return (elements, carriesValues ? nil : .enumeration(cases.map { .init(name: $0.name) }))
    }

    /// Each case's raw value as source text gives it: the literal, else what Swift gives it (a
    /// String's case name; a number one more than the case before, 0 first). A raw value that is
    /// not a literal, or an implicit one after a case whose value is no whole number, is refused.
    static func rawValues(of cases: [ValueTypeDeclaration.EnumCaseDeclaration], type: AttributeType,
                          enumeration: String) throws(ModelError) -> [DeclaredValue.EnumCase] {
        var found: [DeclaredValue.EnumCase] = []
        var previous: Int64?
        for declared in cases {
            let raw: String
            switch declared.rawValue {
            case .literal(let literal):
                raw = literal
            case .notLiteral:
                throw declared.place.error("the raw value of '\(enumeration).\(declared.name)' is not a literal: the stored value must not be guessed")
            case .implicit where type == .string:
                raw = declared.name
            case .implicit:
                guard let next = found.isEmpty ? 0 : previous.flatMap({ $0 < .max ? $0 + 1 : nil }) else {
                    throw declared.place.error("the raw value of '\(enumeration).\(declared.name)' follows one that is no whole number: give it a literal")
                }
                raw = String(next)
            }
            previous = Int64(raw)
            found.append(.init(name: declared.name, rawValue: raw))
        }
        return found
    }
}
