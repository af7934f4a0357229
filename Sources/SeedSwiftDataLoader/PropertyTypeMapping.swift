import SeedModel

/// The Core Data attribute a stored property of a value type becomes.
///
/// Seen in real SwiftData stores (`FACTS.md` of the shared SwiftData corpus): `String`, `Int`
/// (Integer 64), `Double`, `Float`, `Bool`, `UUID` and their optionals; `[String]` as
/// Transformable; a Codable struct as a Composite of its stored properties (an array among them
/// a Binary element holding JSON); an enum with a raw value as a Composite of one optional
/// element of the raw type; an enum without one as a Composite of one optional String per case;
/// SwiftUI's `Color.Resolved` as four Floats. *Assumed* (no real store shows them yet):
/// `Int64`, `Int32`, `Int16`, `Date`, `Data`, `Decimal`, `URL`, mapped as Core Data maps those
/// Foundation types, and arrays of values other than `[String]`.
struct PropertyTypeMapping {
    /// The structs and enums the sources declare.
    let valueTypes: [ValueTypeDeclaration]

    /// Swift type name -> Core Data attribute type.
    static let scalarTypes: [String: AttributeType] = [
        "String": .string, "Bool": .boolean, "Int": .integer64, "Int64": .integer64,
        "Int32": .integer32, "Int16": .integer16, "Double": .double, "Float": .float,
        "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
    ]

    /// Apple's value types whose stored form real stores show (their source is not the app's).
    static let knownComposites: [String: [(String, AttributeType)]] = [
        "Color.Resolved": [("linearRed", .float), ("linearGreen", .float), ("linearBlue", .float), ("opacity", .float)],
    ]

    private static let known = "String, Bool, Int, Int64, Int32, Int16, Double, Float, Date, Data, UUID, URL, Decimal, Codable structs and enums of the sources, Color.Resolved, arrays of these values, @Model classes"

    /// The attribute `property` of `owner` declares; a type whose stored form is not known is
    /// refused at the place its type is written.
    func attribute(for property: PropertyDeclaration, of owner: ModelClassDeclaration) throws(ModelError) -> AttributeDescription {
        if property.relationship != nil {
            throw property.place.error("@Relationship on '\(property.name)', whose type \(property.type) is no @Model class of the sources")
        }
        let options = property.attribute ?? AttributeOptions()
        let (type, isOptional) = property.type.unwrapped
        var attribute = AttributeDescription(
            name: property.name, type: .undefined, isOptional: isOptional, isTransient: options.isEphemeral,
            versionHashModifier: options.hashModifier,
            allowsExternalBinaryDataStorage: options.allowsExternalStorage,
            preserveAfterDeletion: options.preservesValueOnDeletion, line: property.place.line
        )
        attribute.renamingIdentifier = options.originalName
        switch type {
        case .named(let name) where Self.scalarTypes[name] != nil:
            attribute.type = Self.scalarTypes[name]!
            attribute.defaultValue = property.literalDefault
        case .array(let element) where isValue(element, from: owner.scope):
            attribute.type = .transformable
            if element == .named("String") {
                attribute.declaredValue = .stringArray
                attribute.defaultValue = property.literalDefault  // `= []`, `= ["a"]`: as JSON text
            }
        case .named(let name):
            attribute.type = .composite
            (attribute.elements, attribute.declaredValue) = try elements(of: name, property: property, from: owner.scope)
        default:
            throw property.typePlace.error("'\(property.type)': its stored form is not known here (known: \(Self.known))")
        }
        if options.allowsExternalStorage, attribute.type != .binary {
            throw property.place.error("@Attribute(.externalStorage) on '\(property.name)', which is no Data")
        }
        return attribute
    }

    /// A Composite's elements (a struct's stored properties, an enum's raw value or cases), and
    /// for an enum its cases.
    private func elements(of name: String, property: PropertyDeclaration, from scope: [String]) throws(ModelError) -> ([AttributeDescription], DeclaredValue?) {
        let isOptional = property.type.unwrapped.isOptional
        func element(_ name: String, _ type: AttributeType, optional: Bool) -> AttributeDescription {
            AttributeDescription(name: name, type: type, isOptional: optional, line: property.place.line)
        }
        if let known = Self.knownComposites[name] {
            return (known.map { element($0.0, $0.1, optional: isOptional) }, nil)
        }
        guard let declaration = try valueType(named: name, from: scope, place: property.typePlace) else {
            throw property.typePlace.error("'\(name)': its stored form is not known here: no struct or enum of that name in the sources (known: \(Self.known))")
        }
        switch declaration.kind {
        case .unreadable(let error):
            throw error
        case .enumeration(_, _, true):
            throw property.typePlace.error("'\(name)' has cases with associated values, whose stored form is not known here (\(declaration.place))")
        case .enumeration(let rawType?, let cases, _) where Self.scalarTypes[rawType] != nil:
            // Always optional, even for a non-optional property (real stores).
            let type = Self.scalarTypes[rawType]!
            let values = try Self.rawValues(of: cases, type: type, enumeration: name)
            var stored = element(property.name, type, optional: true)
            if let initial = property.caseDefault {
                // `var mood: Mood = .calm`: new objects take the case's raw value.
                guard let match = values.first(where: { $0.name == initial }) else {
                    throw property.place.error("'\(property.name)' starts as '.\(initial)', which is no case of \(name)")
                }
                stored.defaultValue = match.rawValue
            }
            return ([stored], .enumeration(values))
        case .enumeration(_, let cases, _):
            guard !cases.isEmpty else { throw property.typePlace.error("'\(name)' has no cases (\(declaration.place))") }
            return (cases.map { element($0.name, .string, optional: true) }, .enumeration(cases.map { .init(name: $0.name) }))
        case .structure(let members):
            guard !members.isEmpty else { throw property.typePlace.error("'\(name)' has no stored property (\(declaration.place))") }
            return (try members.map { (member) throws(ModelError) -> AttributeDescription in
                let (memberType, memberOptional) = member.type.unwrapped
                switch memberType {
                case .named(let scalar) where Self.scalarTypes[scalar] != nil:
                    return element(member.name, Self.scalarTypes[scalar]!, optional: isOptional || memberOptional)
                case .array(let inner) where isValue(inner, from: declaration.scope + [declaration.name]):
                    // Stored as JSON text in a Binary element (real stores).
                    var array = element(member.name, .binary, optional: isOptional || memberOptional)
                    array.declaredValue = .jsonArray
                    return array
                default:
                    throw member.typePlace.error("'\(member.type)' inside the Composite '\(name)': its stored form is not known here (a struct's properties are values or arrays of values)")
                }
            }, nil)
        }
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

    /// True for a type an array of which is a value: a scalar, or a struct or enum of the sources.
    private func isValue(_ type: DeclaredType, from scope: [String]) -> Bool {
        guard case .named(let name) = type else { return false }
        return Self.scalarTypes[name] != nil || Self.knownComposites[name] != nil
            || (try? valueType(named: name, from: scope, place: nil)) != nil
    }

    /// The struct or enum a name means, seen from `scope`.
    private func valueType(named name: String, from scope: [String], place: SourcePlace?) throws(ModelError) -> ValueTypeDeclaration? {
        try valueTypes.resolve(name, from: scope, kind: "types", place: place, file: place?.file ?? "")
    }
}
