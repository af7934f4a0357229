import SeedModel
import SwiftSyntax

/// Reads the static members SwiftData's schema protocols declare: a `VersionedSchema`'s
/// `versionIdentifier` and `models`, a `SchemaMigrationPlan`'s `schemas` and `stages`. Values
/// must be literals, as elsewhere; what is not understood is kept as the declaration's failure,
/// thrown only when that version or plan is used.
struct SchemaMembers {
    let source: ParsedSource

    /// True when the type's inheritance clause names `protocolName`, however qualified or
    /// attributed (`SwiftData.VersionedSchema`, `@preconcurrency SchemaMigrationPlan`).
    static func conforms(_ clause: InheritanceClauseSyntax?, to protocolName: String) -> Bool {
        clause?.inheritedTypes.contains { inherited in
            var type = inherited.type
            while let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
            if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == protocolName }
            if let member = type.as(MemberTypeSyntax.self) {
                return member.name.text == protocolName && member.baseType.trimmedDescription == "SwiftData"
            }
            return false
        } ?? false
    }

    func versionedSchema(named name: String, context: [ScopeStep], members: MemberBlockItemListSyntax, place: SourcePlace) -> VersionedSchemaDeclaration {
        var declaration = VersionedSchemaDeclaration(name: name, context: context, place: place, versionIdentifier: "", models: [], modelsPlace: place)
        do throws(ModelError) {
            guard let identifier = staticValue("versionIdentifier", in: members) else {
                throw place.error("VersionedSchema \(name) declares no static versionIdentifier")
            }
            guard let models = staticValue("models", in: members) else {
                throw place.error("VersionedSchema \(name) declares no static models")
            }
            declaration.versionIdentifier = try version(identifier)
            declaration.modelsPlace = source.place(of: models)
            declaration.models = try modelList(models)
        } catch {
            declaration.failure = error
        }
        return declaration
    }

    func migrationPlan(named name: String, context: [ScopeStep], members: MemberBlockItemListSyntax, place: SourcePlace) -> MigrationPlanDeclaration {
        var declaration = MigrationPlanDeclaration(name: name, context: context, place: place, schemas: [], schemasPlace: place, stages: [])
        do throws(ModelError) {
            guard let schemas = staticValue("schemas", in: members) else {
                throw place.error("SchemaMigrationPlan \(name) declares no static schemas")
            }
            declaration.schemasPlace = source.place(of: schemas)
            declaration.schemas = try typeList(schemas, what: "schemas")
            if let stages = staticValue("stages", in: members) {
                guard let array = stages.as(ArrayExprSyntax.self) else {
                    throw source.place(of: stages).error("\(name).stages: \(stages.trimmedDescription) is not an array literal of stages")
                }
                declaration.stages = array.elements.map { stageEntry($0.expression) }
            }
        } catch {
            declaration.failure = error
        }
        return declaration
    }

    /// One entry of `stages`: a stage made in place, or the property or function it names.
    private func stageEntry(_ expression: ExprSyntax) -> StageEntry {
        if let stage = stage(expression) { return .direct(stage) }
        var named = expression
        if let call = expression.as(FunctionCallExprSyntax.self) { named = call.calledExpression }
        if let reference = named.as(DeclReferenceExprSyntax.self) {
            return .named(reference.baseName.plainName, source.place(of: expression))
        }
        if let member = named.as(MemberAccessExprSyntax.self) {
            return .named(member.declName.baseName.plainName, source.place(of: expression))
        }
        return .unknown(expression.trimmedDescription, source.place(of: expression))
    }

    /// `.lightweight(fromVersion: A.self, toVersion: B.self)` or `.custom(…)` (also
    /// `MigrationStage.custom(…)`); nil for anything else.
    func stage(_ expression: ExprSyntax) -> StageDeclaration? {
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.base == nil || member.base?.trimmedDescription.hasSuffix("MigrationStage") == true else { return nil }
        let kind: StageDeclaration.Kind
        switch member.declName.baseName.text {
        case "lightweight": kind = .lightweight
        case "custom": kind = .custom
        default: return nil
        }
        func version(_ label: String) -> DeclaredType? {
            guard let argument = call.arguments.first(where: { $0.label?.text == label }) else { return nil }
            return try? selfType(argument.expression, what: label)
        }
        return StageDeclaration(kind: kind, from: version("fromVersion"), to: version("toVersion"), place: source.place(of: call))
    }

    /// The expression a static property holds: its initial value, or a getter's one expression
    /// (`{ [A.self] }` or `{ return [A.self] }`).
    private func staticValue(_ name: String, in members: MemberBlockItemListSyntax) -> ExprSyntax? {
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.modifiers.contains(where: { $0.name.text == "static" }) else { continue }
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                if let value = binding.initializer?.value { return value }
                guard case .getter(let items)? = binding.accessorBlock?.accessors, items.count == 1 else { return nil }
                switch items.first!.item {
                case .expr(let expression): return expression
                case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression
                default: return nil
                }
            }
        }
        return nil
    }

    /// `Schema.Version(2, 0, 0)` (or `.init(2, 0, 0)`) as `2.0.0`.
    private func version(_ expression: ExprSyntax) throws(ModelError) -> String {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 3,
              ["Schema.Version", ".init", "Version", "SwiftData.Schema.Version"].contains(call.calledExpression.trimmedDescription) else {
            throw source.place(of: expression).error("versionIdentifier \(expression.trimmedDescription) is not Schema.Version(major, minor, patch) with literals")
        }
        var parts: [String] = []
        for argument in call.arguments {
            guard argument.label == nil, let literal = argument.expression.as(IntegerLiteralExprSyntax.self), let value = Int(literal.literal.text) else {
                throw source.place(of: argument).error("versionIdentifier: \(argument.trimmedDescription) is not an integer literal")
            }
            parts.append(String(value))
        }
        return parts.joined(separator: ".")
    }

    /// `[A.self, B.C.self]`, or `Other.models + [A.self]`.
    private func modelList(_ expression: ExprSyntax) throws(ModelError) -> [ModelListEntry] {
        if let sequence = expression.as(SequenceExprSyntax.self) {
            var entries: [ModelListEntry] = []
            for (index, element) in sequence.elements.enumerated() {
                if index % 2 == 1 {
                    guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else {
                        throw source.place(of: element).error("models: only `+` of model lists is understood")
                    }
                    continue
                }
                entries += try modelList(element)
            }
            return entries
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "models", let base = member.base,
           let type = typeSpelled(base) {
            return [.modelsOf(type, source.place(of: expression))]
        }
        return try typeList(expression, what: "models").map { .type($0.0, $0.1) }
    }

    /// `[A.self, B.C.self]`: each type and where it is written.
    private func typeList(_ expression: ExprSyntax, what: String) throws(ModelError) -> [(DeclaredType, SourcePlace)] {
        guard let array = expression.as(ArrayExprSyntax.self) else {
            throw source.place(of: expression).error("\(what): \(expression.trimmedDescription) is not an array literal of types (`[Trip.self]`)")
        }
        var types: [(DeclaredType, SourcePlace)] = []
        for element in array.elements {
            types.append((try selfType(element.expression, what: what), source.place(of: element.expression)))
        }
        return types
    }

    /// The type of `T.self`.
    private func selfType(_ expression: ExprSyntax, what: String) throws(ModelError) -> DeclaredType {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
              let base = member.base, let type = typeSpelled(base) else {
            throw source.place(of: expression).error("\(what): \(expression.trimmedDescription) is not a type's `.self`")
        }
        return type
    }

    /// `A` or `A.B.C` spelled as an expression.
    private func typeSpelled(_ expression: ExprSyntax) -> DeclaredType? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return .named(reference.baseName.plainName) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, case .named(let path)? = typeSpelled(base) {
            return .named(path + "." + member.declName.baseName.plainName)
        }
        if let type = expression.as(TypeExprSyntax.self) { return DeclaredType(type.type) }
        return nil
    }
}
