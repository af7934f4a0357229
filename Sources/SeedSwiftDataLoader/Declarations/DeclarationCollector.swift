import Foundation
import SeedModel
import SwiftSyntax

/// Walks one parsed source and collects every type, typealias and schema declaration with the
/// lexical context it is written in; names are resolved once every file is read
/// (`TypeNamespace`). Function bodies are not entered: a model is declared at type level.
///
/// Nothing here throws for what a declaration holds: a class, struct or schema that is not
/// understood keeps its failure, thrown only if the model being read uses it, so one version's
/// constructs never block another's.
final class DeclarationCollector: SyntaxVisitor {
    private let source: ParsedSource
    private let arguments: MacroArguments
    private var context: [ScopeStep] = []
    /// The `#if` conditions not known here that the walk is inside (text and place).
    private var unknownConditions: [(String, SourcePlace)] = []
    private var found = SourceDeclarations()

    init(source: ParsedSource) {
        self.source = source
        self.arguments = MacroArguments(source: source)
        super.init(viewMode: .sourceAccurate)
    }

    /// What `source` declares, in file order.
    static func declarations(in source: ParsedSource) -> SourceDeclarations {
        let collector = DeclarationCollector(source: source)
        collector.walk(source.tree)
        return collector.found
    }

    // MARK: Types

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if Self.has(node.attributes, named: "Model") {
            found.classes.append(modelClass(node))
        } else {
            appendValueType(node.name, kind: .other("class"), generics: node.genericParameterClause)
        }
        collectSchemaMembers(name: node.name, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        return enter(node.name)
    }
    override func visitPost(_ node: ClassDeclSyntax) { context.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        // A struct that is no model's part may hold anything: its properties are read, and
        // a failure kept, for when a model stores it.
        var failure: ModelError?
        var members: [PropertyDeclaration] = []
        do throws(ModelError) {
            for member in node.memberBlock.members {
                if let variable = member.decl.as(VariableDeclSyntax.self) { members += try properties(variable, ofModel: false) }
                if let condition = member.decl.as(IfConfigDeclSyntax.self), Self.declaresStoredState(condition) {
                    throw source.place(of: condition).error("a #if around stored properties of \(node.name.text): which branch the app builds is not known here")
                }
            }
        } catch {
            failure = error
        }
        appendValueType(node.name, kind: .structure(members), generics: node.genericParameterClause, failure: failure)
        collectSchemaMembers(name: node.name, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        return enter(node.name)
    }
    override func visitPost(_ node: StructDeclSyntax) { context.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let cases = node.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(\.elements)
        let rawType = node.inheritanceClause?.inheritedTypes.first.map { DeclaredType($0.type) }
        let declared = cases.map { element in
            var raw = ValueTypeDeclaration.EnumCaseDeclaration.RawValue.implicit
            if let expression = element.rawValue?.value {
                // A string or number literal (no Bool raw type exists).
                let given = InitialValue(expression)
                raw = given.form == .literal(.named("Bool")) ? .notLiteral : given.literal.map { .literal($0) } ?? .notLiteral
            }
            let values = element.parameterClause.map { clause in
                clause.parameters.map { parameter in
                    ValueTypeDeclaration.EnumCaseDeclaration.AssociatedValue(
                        label: parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.plainName },
                        type: DeclaredType(parameter.type), place: source.place(of: parameter.type)
                    )
                }
            }
            return ValueTypeDeclaration.EnumCaseDeclaration(name: element.name.plainName, rawValue: raw, place: source.place(of: element.name), associatedValues: values)
        }
        appendValueType(node.name, kind: .enumeration(rawType: rawType, cases: declared), generics: node.genericParameterClause)
        let inner = context + [.type(node.name.plainName)]
        for element in cases where element.parameterClause == nil {
            found.statics.append(StaticMemberDeclaration(name: element.name.plainName, context: inner, annotation: .named(node.name.plainName), initial: nil))
        }
        collectSchemaMembers(name: node.name, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        return enter(node.name)
    }
    override func visitPost(_ node: EnumDeclSyntax) { context.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        appendValueType(node.name, kind: .other("actor"), generics: node.genericParameterClause)
        return enter(node.name)
    }
    override func visitPost(_ node: ActorDeclSyntax) { context.removeLast() }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        appendValueType(node.name, kind: .other("protocol"), generics: nil)
        return .skipChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        context.append(.extended(DeclaredType(node.extendedType)))
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { context.removeLast() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        found.aliases.append(TypeAliasDeclaration(
            name: node.name.plainName, context: context, place: source.place(of: node.name),
            target: DeclaredType(node.initializer.value), failure: conditionFailure(node.name)
        ))
        return .skipChildren
    }

    // MARK: Conditional compilation

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        switch CompilationCondition.activeClause(of: node) {
        case .taken(let clause):
            walkElements(of: clause)
        case .none:
            break
        case .unknown where node.clauses.count == 1:
            // A lone `#if` without `#else`: what it declares exists only where the condition
            // holds, and an app that uses it is built where it holds.
            walkElements(of: node.clauses.first!)
        case .unknown(let condition):
            // Alternatives: what each declares is read, but fails wherever it is used.
            unknownConditions.append((condition, source.place(of: node)))
            for clause in node.clauses { walkElements(of: clause) }
            unknownConditions.removeLast()
        }
        return .skipChildren
    }

    private func walkElements(of clause: IfConfigClauseSyntax) {
        if let elements = clause.elements { walk(elements) }
    }

    /// The failure of a declaration written under `#if` alternatives not known here.
    private func conditionFailure(_ name: TokenSyntax) -> ModelError? {
        guard let (condition, place) = unknownConditions.last else { return nil }
        return source.place(of: name).error("'\(name.plainName)' is declared under `#if \(condition)` (\(place)), whose branch the app builds is not known here; seedgen reads a release build for an Apple platform (see SwiftDataModels.md)")
    }

    // MARK: Members

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isStatic = node.modifiers.contains { ["static", "class"].contains($0.name.text) }
        if isStatic || context.isEmpty {
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.plainName else { continue }
                if isStatic, !context.isEmpty {
                    found.statics.append(StaticMemberDeclaration(
                        name: name, context: context, annotation: binding.typeAnnotation.map { DeclaredType($0.type) },
                        initial: binding.initializer.map { InitialValue($0.value) }
                    ))
                }
                recordStages(in: binding, named: name)
            }
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        recordStages(in: node, named: node.name.plainName)
        return .skipChildren
    }

    /// Files the migration stages `node` makes under `name`, for a plan's `stages` that names it.
    private func recordStages(in node: some SyntaxProtocol, named name: String) {
        let reader = SchemaMembers(source: source)
        let stages = StageFinder.calls(in: node).compactMap { reader.stage(ExprSyntax($0)) }
        if !stages.isEmpty { found.stageMakers[name, default: []] += stages }
    }

    // Bodies hold no model declarations.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: Helpers

    private func enter(_ name: TokenSyntax) -> SyntaxVisitorContinueKind {
        context.append(.type(name.plainName))
        return .visitChildren
    }

    private func appendValueType(_ name: TokenSyntax, kind: ValueTypeDeclaration.Kind, generics: GenericParameterClauseSyntax?, failure: ModelError? = nil) {
        found.valueTypes.append(ValueTypeDeclaration(
            name: name.plainName, context: context, place: source.place(of: name), kind: kind,
            genericParameters: generics?.parameters.map(\.name.plainName) ?? [],
            failure: conditionFailure(name) ?? failure
        ))
    }

    /// Reads a `VersionedSchema` or `SchemaMigrationPlan` type's members.
    private func collectSchemaMembers(name: TokenSyntax, inheritance: InheritanceClauseSyntax?, members: MemberBlockItemListSyntax) {
        let reader = SchemaMembers(source: source)
        let place = source.place(of: name)
        if SchemaMembers.conforms(inheritance, to: "VersionedSchema") {
            var schema = reader.versionedSchema(named: name.plainName, context: context, members: members, place: place)
            schema.failure = conditionFailure(name) ?? schema.failure
            found.versionedSchemas.append(schema)
        }
        if SchemaMembers.conforms(inheritance, to: "SchemaMigrationPlan") {
            var plan = reader.migrationPlan(named: name.plainName, context: context, members: members, place: place)
            plan.failure = conditionFailure(name) ?? plan.failure
            found.migrationPlans.append(plan)
        }
    }

    /// True when the attribute list holds `@name` or `@SwiftData.name`.
    static func has(_ attributes: AttributeListSyntax, named name: String) -> Bool {
        attributes.contains { element in
            if case .attribute(let attribute) = element { return [name, "SwiftData." + name].contains(attribute.attributeName.trimmedDescription) }
            return false
        }
    }

    private func modelClass(_ node: ClassDeclSyntax) -> ModelClassDeclaration {
        var model = ModelClassDeclaration(
            name: node.name.plainName, context: context, place: source.place(of: node.name),
            inheritedType: node.inheritanceClause?.inheritedTypes.first.map { DeclaredType($0.type) },
            properties: [], uniqueConstraints: [], indexes: [], failure: conditionFailure(node.name)
        )
        do throws(ModelError) {
            if node.genericParameterClause != nil {
                throw source.place(of: node.name).error("a generic @Model class is not understood")
            }
            try readMembers(node.memberBlock.members, into: &model)
        } catch {
            model.failure = model.failure ?? error
        }
        return model
    }

    private func readMembers(_ members: MemberBlockItemListSyntax, into model: inout ModelClassDeclaration) throws(ModelError) {
        for member in members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                model.properties += try properties(variable, ofModel: true)
            } else if let macro = member.decl.as(MacroExpansionDeclSyntax.self) {
                switch macro.macroName.text {
                case "Unique": model.uniqueConstraints += try arguments.pathLists(macro)
                case "Index": model.indexes += try arguments.pathLists(macro)
                default: continue
                }
            } else if let condition = member.decl.as(IfConfigDeclSyntax.self) {
                switch CompilationCondition.activeClause(of: condition) {
                case .taken(let clause):
                    if case .decls(let inner) = clause.elements { try readMembers(inner, into: &model) }
                case .none:
                    continue
                case .unknown(let text):
                    if Self.declaresStoredState(condition) {
                        throw source.place(of: condition).error("`#if \(text)` around properties or macros of a @Model class: which branch the app builds is not known here (seedgen reads a release build: DEBUG and other -D flags are off, see SwiftDataModels.md)")
                    }
                }
            }
        }
    }

    /// True when a `#if` block holds a property or a macro (which could change the model).
    private static func declaresStoredState(_ condition: IfConfigDeclSyntax) -> Bool {
        condition.clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { member in
                if let variable = member.decl.as(VariableDeclSyntax.self) {
                    // A stored instance property (computed and static ones change no model).
                    return !variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
                        && variable.bindings.contains { binding in binding.accessorBlock.map { !isComputed($0) } ?? true }
                }
                return member.decl.is(MacroExpansionDeclSyntax.self) || member.decl.is(IfConfigDeclSyntax.self)
            }
        }
    }

    /// The stored properties one declaration makes (`var a, b: Int` makes two).
    private func properties(_ node: VariableDeclSyntax, ofModel: Bool) throws(ModelError) -> [PropertyDeclaration] {
        let modifiers = node.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") { return [] }
        if ofModel, Self.has(node.attributes, named: "Transient") { return [] }
        var attributeOptions: AttributeOptions?
        var relationshipOptions: RelationshipOptions?
        if ofModel {
            if modifiers.contains("lazy") {
                throw source.place(of: node).error("a lazy property of a @Model class is not understood (SwiftData stores only plain stored properties; mark it @Transient)")
            }
            for element in node.attributes {
                guard case .attribute(let attribute) = element else {
                    throw source.place(of: element).error("a #if among a property's attributes is not understood")
                }
                switch attribute.attributeName.trimmedDescription {
                case "Attribute", "SwiftData.Attribute": attributeOptions = try arguments.attributeOptions(attribute)
                case "Relationship", "SwiftData.Relationship": relationshipOptions = try arguments.relationshipOptions(attribute)
                case "available", "MainActor", "ObservationIgnored", "preconcurrency", "objc", "nonobjc": continue
                case let other:
                    throw source.place(of: attribute).error("@\(other) on a property of a @Model class is not understood")
                }
            }
        }
        var found: [PropertyDeclaration] = []
        let bindings = Array(node.bindings)
        for (position, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, Self.isComputed(accessors) { continue }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                throw source.place(of: binding.pattern).error("a property pattern other than a name is not understood")
            }
            // `var a, b: Int`: a binding without its own type takes the next one's.
            let annotation = binding.typeAnnotation ?? bindings[position...].lazy.compactMap(\.typeAnnotation).first
            let initial = binding.initializer.map { InitialValue($0.value) }
            found.append(PropertyDeclaration(
                name: identifier.identifier.plainName, place: source.place(of: binding.pattern),
                annotation: annotation.map { DeclaredType($0.type) },
                typePlace: annotation.map { source.place(of: $0.type) } ?? binding.initializer.map { source.place(of: $0.value) } ?? source.place(of: binding.pattern),
                initial: initial, attribute: attributeOptions, relationship: relationshipOptions
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

/// The calls inside a declaration that may make a migration stage (`.custom(…)`, `MigrationStage.lightweight(…)`).
private final class StageFinder: SyntaxVisitor {
    private var found: [FunctionCallExprSyntax] = []

    static func calls(in node: some SyntaxProtocol) -> [FunctionCallExprSyntax] {
        let finder = StageFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), ["custom", "lightweight"].contains(member.declName.baseName.text) {
            found.append(node)
        }
        return .visitChildren
    }
}
