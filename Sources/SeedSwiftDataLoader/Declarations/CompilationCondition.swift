import SwiftSyntax

/// Evaluates a `#if` condition as far as it is known for the build a seed is made for: an app
/// built for release, on an Apple platform, importing SwiftData.
///
/// - `true`, `false` are themselves.
/// - A custom condition (`DEBUG`, `TESTING`, any other name) is false: seedgen reads the sources
///   as a release build given no `-D` flags, and Swift takes an undefined condition as false.
/// - `canImport(SwiftData)`, `canImport(Foundation)`, `canImport(Observation)` are true (the app
///   is a SwiftData app); `canImport` of anything else, `os(…)`, `arch(…)`,
///   `targetEnvironment(…)`, `swift(…)`, `compiler(…)`, `hasFeature(…)`, `hasAttribute(…)` are
///   unknown: which platform or toolchain builds the app is not known here.
/// - `!`, `&&`, `||` and parentheses combine them in three-valued logic (`false && x` is false,
///   `true || x` true, whatever `x`).
///
/// SwiftIfConfig (swift-syntax) evaluates conditions for one definite build configuration and
/// has no "unknown": seedgen needs to tell a branch it cannot know from one that is off.
enum CompilationCondition {
    /// Frameworks every SwiftData app can import.
    private static let importable: Set<String> = ["SwiftData", "Foundation", "Observation", "Swift"]

    /// True, false, or nil when it depends on what is not known here.
    static func evaluate(_ expression: ExprSyntax, depth: Int = 0) -> Bool? {
        guard depth < 64 else { return nil }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.tokenKind == .keyword(.true)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1 {
            return evaluate(tuple.elements.first!.expression, depth: depth + 1)
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return evaluate(prefix.expression, depth: depth + 1).map { !$0 }
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return false
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            if name == "canImport", let module = call.arguments.first?.expression.trimmedDescription, importable.contains(module) {
                return true
            }
            return nil
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return evaluate(sequence: Array(sequence.elements), depth: depth + 1)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text {
            return combine(evaluate(infix.leftOperand, depth: depth + 1), op, evaluate(infix.rightOperand, depth: depth + 1))
        }
        return nil
    }

    /// `a && b || c` as the parser leaves it (a flat sequence): `&&` binds tighter than `||`.
    private static func evaluate(sequence elements: [ExprSyntax], depth: Int) -> Bool? {
        guard elements.count % 2 == 1 else { return nil }
        var disjuncts: [Bool?] = []
        var conjunction: Bool? = evaluate(elements[0], depth: depth)
        var index = 1
        while index + 1 < elements.count {
            guard let op = elements[index].as(BinaryOperatorExprSyntax.self)?.operator.text else { return nil }
            let operand = evaluate(elements[index + 1], depth: depth)
            switch op {
            case "&&": conjunction = combine(conjunction, "&&", operand)
            case "||":
                disjuncts.append(conjunction)
                conjunction = operand
            default: return nil
            }
            index += 2
        }
        disjuncts.append(conjunction)
        return disjuncts.dropFirst().reduce(disjuncts[0]) { combine($0, "||", $1) }
    }

    private static func combine(_ left: Bool?, _ op: String, _ right: Bool?) -> Bool? {
        switch op {
        case "&&":
            if left == false || right == false { return false }
            if left == true && right == true { return true }
            return nil
        case "||":
            if left == true || right == true { return true }
            if left == false && right == false { return false }
            return nil
        default:
            return nil
        }
    }

    /// The clause of `node` the build takes (`nil` when none is taken), or `.unknown` when it
    /// depends on what is not known here.
    static func activeClause(of node: IfConfigDeclSyntax) -> Branch {
        for clause in node.clauses {
            guard let condition = clause.condition else { return .taken(clause) }  // #else
            switch evaluate(condition) {
            case true?: return .taken(clause)
            case false?: continue
            case nil: return .unknown(condition.trimmedDescription)
            }
        }
        return .none
    }

    /// Which clause of a `#if` a build takes.
    enum Branch {
        case taken(IfConfigClauseSyntax)
        case none
        /// The first condition that decides it is not known (its text).
        case unknown(String)
    }
}
