import Foundation
import SeedModel
import SwiftSyntax

/// Walks one parsed source and collects its `@Model` classes, each with its stored properties
/// and macros read. Function bodies are not entered: a model is declared at type level.
final class DeclarationCollector: SyntaxVisitor {
    private let source: ParsedSource
    private let arguments: MacroArguments
    private var scope: [String] = []
    private var found = SourceDeclarations()
    /// The first thing not understood; the walk stops there.
    private(set) var failure: ModelError?

    init(source: ParsedSource) {
        self.source = source
        self.arguments = MacroArguments(source: source)
        super.init(viewMode: .sourceAccurate)
    }

    /// What `source` declares, in file order.
    static func declarations(in source: ParsedSource) throws(ModelError) -> SourceDeclarations {
        let collector = DeclarationCollector(source: source)
        collector.walk(source.tree)
        if let failure = collector.failure { throw failure }
        return collector.found
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard failure == nil else { return .skipChildren }
        if Self.has(node.attributes, named: "Model") {
            do {
                found.classes.append(try modelClass(node))
            } catch {
                failure = error
                return .skipChildren
            }
        }
        scope.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { popScope(node.name.text) }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        guard failure == nil else { return .skipChildren }
        // A struct that is no model's part may hold anything: its properties are read only
        // when a model stores it (a failure then is its own).
        var kind = ValueTypeDeclaration.Kind.structure([])
        do {
            var members: [PropertyDeclaration] = []
            for member in node.memberBlock.members {
                if let variable = member.decl.as(VariableDeclSyntax.self) { members += try properties(variable) }
            }
            kind = .structure(members)
        } catch {
            kind = .unreadable(error)
        }
        found.valueTypes.append(ValueTypeDeclaration(name: node.name.text, scope: scope, place: source.place(of: node.name), kind: kind))
        guard collectSchemaMembers(name: node.name.text, place: source.place(of: node.name), inheritance: node.inheritanceClause, members: node.memberBlock.members) else { return .skipChildren }
        return enter(node.name.text)
    }
    override func visitPost(_ node: StructDeclSyntax) { popScope(node.name.text) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        guard failure == nil else { return .skipChildren }
        let cases = node.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(\.elements)
        let rawType = node.inheritanceClause?.inheritedTypes.first.map { DeclaredType($0.type) }
        guard collectSchemaMembers(name: node.name.text, place: source.place(of: node.name), inheritance: node.inheritanceClause, members: node.memberBlock.members) else { return .skipChildren }
        found.valueTypes.append(ValueTypeDeclaration(
            name: node.name.text, scope: scope, place: source.place(of: node.name),
            kind: .enumeration(
                rawType: rawType.flatMap { if case .named(let name) = $0 { name } else { nil } },
                cases: cases.map { element in
                    var raw = ValueTypeDeclaration.EnumCaseDeclaration.RawValue.implicit
                    if let expression = element.rawValue?.value {
                        // A string or number literal (no Bool raw type exists).
                        let given = arguments.initialValue(expression)
                        raw = given.type == .named("Bool") ? .notLiteral : given.literal.map { .literal($0) } ?? .notLiteral
                    }
                    return .init(name: element.name.plainName, rawValue: raw, place: source.place(of: element.name))
                },
                carriesValues: cases.contains { $0.parameterClause != nil }
            )
        ))
        return enter(node.name.text)
    }
    override func visitPost(_ node: EnumDeclSyntax) { popScope(node.name.text) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
    override func visitPost(_ node: ActorDeclSyntax) { popScope(node.name.text) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.extendedType.trimmedDescription) }
    override func visitPost(_ node: ExtensionDeclSyntax) { popScope(node.extendedType.trimmedDescription) }

    // Bodies hold no model declarations.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// Reads a `VersionedSchema` or `SchemaMigrationPlan` type's members; false after a failure.
    private func collectSchemaMembers(name: String, place: SourcePlace, inheritance: InheritanceClauseSyntax?, members: MemberBlockItemListSyntax) -> Bool {
        let reader = SchemaMembers(source: source)
        do {
            if SchemaMembers.conforms(inheritance, to: "VersionedSchema") {
                found.versionedSchemas.append(try reader.versionedSchema(named: name, scope: scope, members: members, place: place))
            }
            if SchemaMembers.conforms(inheritance, to: "SchemaMigrationPlan") {
                found.migrationPlans.append(try reader.migrationPlan(named: name, members: members, place: place))
            }
            return true
        } catch {
            failure = error
            return false
        }
    }

    private func enter(_ name: String) -> SyntaxVisitorContinueKind {
        guard failure == nil else { return .skipChildren }
        scope.append(name)
        return .visitChildren
    }

    private func popScope(_ name: String) {
        if scope.last == name { scope.removeLast() }
    }

    /// True when the attribute list holds `@name` or `@SwiftData.name`.
    static func has(_ attributes: AttributeListSyntax, named name: String) -> Bool {
        attribute(in: attributes, named: name) != nil
    }

    static func attribute(in attributes: AttributeListSyntax, named name: String) -> AttributeSyntax? {
        for element in attributes {
            if case .attribute(let attribute) = element,
               [name, "SwiftData." + name].contains(attribute.attributeName.trimmedDescription) {
                return attribute
            }
        }
        return nil
    }

    private func modelClass(_ node: ClassDeclSyntax) throws(ModelError) -> ModelClassDeclaration {
        var model = ModelClassDeclaration(
            name: node.name.text, scope: scope, place: source.place(of: node.name),
            inheritedType: node.inheritanceClause?.inheritedTypes.first.map { $0.type.trimmedDescription },
            properties: [], uniqueConstraints: [], indexes: []
        )
        if node.genericParameterClause != nil {
            throw source.place(of: node.name).error("a generic @Model class is not understood")
        }
        for member in node.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                model.properties += try properties(variable)
            } else if let macro = member.decl.as(MacroExpansionDeclSyntax.self) {
                switch macro.macroName.text {
                case "Unique": model.uniqueConstraints += try arguments.pathLists(macro)
                case "Index": model.indexes += try arguments.pathLists(macro)
                default: continue
                }
            } else if let condition = member.decl.as(IfConfigDeclSyntax.self), Self.declaresStoredState(condition) {
                throw source.place(of: condition).error("a #if around properties or macros of a @Model class: which branch the app builds is not known here")
            }
        }
        return model
    }

    /// True when a `#if` block holds a property or a macro (which could change the model).
    private static func declaresStoredState(_ condition: IfConfigDeclSyntax) -> Bool {
        condition.clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { $0.decl.is(VariableDeclSyntax.self) || $0.decl.is(MacroExpansionDeclSyntax.self) || $0.decl.is(IfConfigDeclSyntax.self) }
        }
    }

    /// The stored properties one declaration makes (`var a, b: Int` makes two).
    private func properties(_ node: VariableDeclSyntax) throws(ModelError) -> [PropertyDeclaration] {
        let modifiers = node.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") { return [] }
        if Self.has(node.attributes, named: "Transient") { return [] }
        if modifiers.contains("lazy") {
            throw source.place(of: node).error("a lazy property of a @Model class is not understood")
        }
        var attributeOptions: AttributeOptions?
        var relationshipOptions: RelationshipOptions?
        for element in node.attributes {
            guard case .attribute(let attribute) = element else {
                throw source.place(of: element).error("a #if among a property's attributes is not understood")
            }
            switch attribute.attributeName.trimmedDescription {
            case "Attribute", "SwiftData.Attribute": attributeOptions = try arguments.attributeOptions(attribute)
            case "Relationship", "SwiftData.Relationship": relationshipOptions = try arguments.relationshipOptions(attribute)
            case "available", "MainActor", "ObservationIgnored": continue
            case let other:
                throw source.place(of: attribute).error("@\(other) on a property of a @Model class is not understood")
            }
        }
        var found: [PropertyDeclaration] = []
        let bindings = Array(node.bindings)
        for (position, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, Self.isComputed(accessors) { continue }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw source.place(of: binding.pattern).error("a property pattern other than a name is not understood")
            }
            let name = identifier.identifier.plainName
            let initial = binding.initializer.map { arguments.initialValue($0.value) }
            // `var a, b: Int`: a binding without its own type takes the next one's.
            let annotation = binding.typeAnnotation ?? bindings[position...].lazy.compactMap(\.typeAnnotation).first
            let type: DeclaredType
            let typePlace: SourcePlace
            if let annotation {
                type = DeclaredType(annotation.type)
                typePlace = source.place(of: annotation.type)
            } else if let inferred = initial?.type, let value = binding.initializer?.value {
                type = inferred
                typePlace = source.place(of: value)
            } else {
                throw source.place(of: binding.pattern).error("property '\(name)' has no type annotation and its initial value gives none seedgen can read; write its type")
            }
            found.append(PropertyDeclaration(
                name: name, place: source.place(of: binding.pattern), type: type, typePlace: typePlace,
                literalDefault: initial?.literal, caseDefault: binding.initializer.flatMap { MacroArguments.caseName($0.value) },
                attribute: attributeOptions, relationship: relationshipOptions
            ))
        }
        return found
    }

    /// True for a getter (`{ name }`, `get`, `set`); `willSet`/`didSet` alone leave a property stored.
    private static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { !["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }
}
