import SeedModel
import SwiftSyntax

/// Reads the static members SwiftData's schema protocols declare: a `VersionedSchema`'s
/// `versionIdentifier` and `models`, a `SchemaMigrationPlan`'s `schemas` and its stages (only
/// lightweight ones are understood). Values must be literals, as elsewhere.
struct SchemaMembers {
    let source: ParsedSource

    /// True when the type's inheritance clause names `protocolName` (or `SwiftData.protocolName`).
    static func conforms(_ clause: InheritanceClauseSyntax?, to protocolName: String) -> Bool {
        clause?.inheritedTypes.contains { [protocolName, "SwiftData." + protocolName].contains($0.type.trimmedDescription) } ?? false
    }

    func versionedSchema(named name: String, scope: [String], members: MemberBlockItemListSyntax, place: SourcePlace) throws(ModelError) -> VersionedSchemaDeclaration {
        guard let identifier = staticValue("versionIdentifier", in: members) else {
            throw place.error("VersionedSchema \(name) declares no static versionIdentifier")
        }
        guard let models = staticValue("models", in: members) else {
            throw place.error("VersionedSchema \(name) declares no static models")
        }
        return VersionedSchemaDeclaration(
            name: name, scope: scope, place: place,
            versionIdentifier: try version(identifier), models: try typeList(models, what: "models"),
            modelsPlace: source.place(of: models)
        )
    }

    func migrationPlan(named name: String, members: MemberBlockItemListSyntax, place: SourcePlace) throws(ModelError) -> MigrationPlanDeclaration {
        guard let schemas = staticValue("schemas", in: members) else {
            throw place.error("SchemaMigrationPlan \(name) declares no static schemas")
        }
        // Any stage other than a lightweight one is refused: what a custom stage's closures do
        // to the data cannot be known from here.
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for call in CallFinder.calls(in: variable) where call.name == "custom" {
                let stage = variable.bindings.first?.pattern.trimmedDescription ?? "a stage"
                throw source.place(of: call.node).error("\(name).\(stage) is a custom migration stage: seedgen migrates with lightweight stages only (its closures run app code)")
            }
        }
        return MigrationPlanDeclaration(name: name, place: place, schemas: try typeList(schemas, what: "schemas"), schemasPlace: source.place(of: schemas))
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
              ["Schema.Version", ".init", "Version"].contains(call.calledExpression.trimmedDescription) else {
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

    /// `[A.self, B.C.self]` as `["A", "B.C"]`.
    private func typeList(_ expression: ExprSyntax, what: String) throws(ModelError) -> [String] {
        guard let array = expression.as(ArrayExprSyntax.self) else {
            throw source.place(of: expression).error("\(what): \(expression.trimmedDescription) is not an array literal of types (`[Trip.self]`)")
        }
        var names: [String] = []
        for element in array.elements {
            guard let member = element.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                  let base = member.base else {
                throw source.place(of: element).error("\(what): \(element.expression.trimmedDescription) is not a type's `.self`")
            }
            names.append(base.trimmedDescription)
        }
        return names
    }
}

/// The calls inside a declaration, by the name called (`MigrationStage.custom(…)`, `.custom(…)`).
private final class CallFinder: SyntaxVisitor {
    private var found: [(name: String, node: Syntax)] = []

    static func calls(in node: some SyntaxProtocol) -> [(name: String, node: Syntax)] {
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            found.append((member.declName.baseName.text, Syntax(node)))
        }
        return .visitChildren
    }
}
