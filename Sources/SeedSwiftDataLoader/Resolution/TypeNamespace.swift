import SeedModel

/// Every type and typealias of the sources, placed where Swift places it, and name lookup as
/// the Swift compiler does it: from the innermost lexical scope outward (the type a name is
/// written in, each type enclosing it, extensions of those types included, then the module),
/// then the standard library and frameworks; typealiases followed at any level and through
/// chains; qualified names member by member. The one resolver of type names, key paths' roots,
/// `models` lists and `--schema`.
struct TypeNamespace {
    /// A declaration that has a name in some scope.
    enum Member: Equatable {
        case model(Int)
        case value(Int)
        case alias(Int)
    }

    let declarations: SourceDeclarations
    /// Canonical scope (the path of type names, extensions resolved) -> name -> declarations.
    private var scopes: [[String]: [String: [Member]]] = [:]
    /// The canonical path of each `@Model` class and value type (its scope and its name).
    private(set) var classPaths: [[String]]
    private(set) var valuePaths: [[String]]
    /// The canonical scope each typealias is written in.
    private var aliasScopes: [[String]]
    /// Generic parameters by the canonical path of the type declaring them.
    private var genericParameters: [[String]: Set<String>] = [:]
    /// Static members and enum cases by the canonical path of their type.
    private var statics: [[String]: [String: StaticMemberDeclaration]] = [:]

    /// Longest chain of typealiases or nesting followed before a name is refused (a cycle).
    static let depthLimit = 64

    init(_ declarations: SourceDeclarations) {
        self.declarations = declarations
        classPaths = Array(repeating: [], count: declarations.classes.count)
        valuePaths = Array(repeating: [], count: declarations.valueTypes.count)
        aliasScopes = Array(repeating: [], count: declarations.aliases.count)
        // Extensions name their type from the module's scope, which other extensions may fill:
        // placed in passes until nothing more can be; the rest extend a type not in the sources.
        var pending: [(Member, [ScopeStep], String)] =
            declarations.classes.indices.map { (.model($0), declarations.classes[$0].context, declarations.classes[$0].name) }
            + declarations.valueTypes.indices.map { (.value($0), declarations.valueTypes[$0].context, declarations.valueTypes[$0].name) }
            + declarations.aliases.indices.map { (.alias($0), declarations.aliases[$0].context, declarations.aliases[$0].name) }
        var lenient = false
        while !pending.isEmpty {
            var waiting: [(Member, [ScopeStep], String)] = []
            for entry in pending {
                guard let scope = canonicalScope(entry.1, lenient: lenient) else {
                    waiting.append(entry)
                    continue
                }
                place(entry.0, named: entry.2, in: scope)
            }
            if waiting.count == pending.count { lenient = true }
            pending = waiting
        }
        for (index, value) in declarations.valueTypes.enumerated() where !value.genericParameters.isEmpty {
            genericParameters[valuePaths[index], default: []].formUnion(value.genericParameters)
        }
        for member in declarations.statics {
            guard let path = canonicalScope(member.context, lenient: true) else { continue }
            statics[path, default: [:]][member.name] = statics[path]?[member.name] ?? member
        }
    }

    private mutating func place(_ member: Member, named name: String, in scope: [String]) {
        scopes[scope, default: [:]][name, default: []].append(member)
        switch member {
        case .model(let index): classPaths[index] = scope + [name]
        case .value(let index): valuePaths[index] = scope + [name]
        case .alias(let index): aliasScopes[index] = scope
        }
    }

    /// The canonical path of a lexical context: an extension's type resolved from the module.
    /// Nil while that type is not placed yet; with `lenient`, an extension of a type the sources
    /// do not declare (`extension Date`) is a scope of its own (`§Date`).
    func canonicalScope(_ context: [ScopeStep], lenient: Bool = true) -> [String]? {
        var path: [String] = []
        for step in context {
            switch step {
            case .type(let name):
                path.append(name)
            case .extended(let type):
                let place = SourcePlace(file: "", line: 0, column: 0)
                if let resolved = try? resolve(type, from: path, place: place), let nominal = nominalPath(of: resolved) {
                    path = nominal
                } else if lenient {
                    path = ["§" + type.description]
                } else {
                    return nil
                }
            }
        }
        return path
    }

    /// The canonical path of a declaration: where it is written, extensions resolved, and its name.
    func path(of declaration: some ScopedDeclaration) -> [String] {
        (canonicalScope(declaration.context) ?? []) + [declaration.name]
    }

    /// The scope a type's members are looked up in, for a resolved nominal type.
    func nominalPath(of type: ResolvedType) -> [String]? {
        switch type {
        case .model(let index): classPaths[index].isEmpty ? nil : classPaths[index]
        case .value(let index): valuePaths[index].isEmpty ? nil : valuePaths[index]
        case .standard(let name): ["§" + name]
        default: nil
        }
    }

    // MARK: Resolving

    /// `type` as Swift resolves it when written inside `scope` (a canonical path); a name
    /// Swift would find ambiguous, or a typealias chain that never ends, is refused at `place`.
    func resolve(_ type: DeclaredType, from scope: [String], place: SourcePlace, depth: Int = 0) throws(ModelError) -> ResolvedType {
        // The type's own nesting is measured once, at the top; aliases add to `depth`.
        guard depth < Self.depthLimit, depth > 0 || type.depth < Self.depthLimit else {
            let text = "\(type)"
            throw place.error("'\(text.count > 80 ? text.prefix(80) + "…" : text)' nests or aliases types more than \(Self.depthLimit) levels deep (a typealias cycle?)")
        }
        switch type {
        case .optional(let wrapped): return .optional(try resolve(wrapped, from: scope, place: place, depth: depth + 1))
        case .array(let element): return .array(try resolve(element, from: scope, place: place, depth: depth + 1))
        case .dictionary(let key, let value):
            return .dictionary(try resolve(key, from: scope, place: place, depth: depth + 1), try resolve(value, from: scope, place: place, depth: depth + 1))
        case .other(let text): return .unsupported(text)
        case .named(let path): return try resolvePath(path, from: scope, place: place, depth: depth)
        case .generic(let path, let arguments):
            let base = try resolvePath(path, from: scope, place: place, depth: depth)
            func argument(_ index: Int) throws(ModelError) -> ResolvedType {
                try resolve(arguments[index], from: scope, place: place, depth: depth + 1)
            }
            switch (base, arguments.count) {
            case (.standard("Array"), 1), (.standard("ContiguousArray"), 1): return .array(try argument(0))
            case (.standard("Optional"), 1): return .optional(try argument(0))
            case (.standard("Set"), 1): return .set(try argument(0))
            case (.standard("Dictionary"), 2): return .dictionary(try argument(0), try argument(1))
            case (.value, _), (.unknown, _): return base
            default: return .unsupported(type.description)
            }
        }
    }

    /// A dotted name: its first component found from `scope` outward, the others as members.
    private func resolvePath(_ path: String, from scope: [String], place: SourcePlace, depth: Int) throws(ModelError) -> ResolvedType {
        let components = path.split(separator: ".").map(String.init)
        guard let first = components.first else { return .unknown(path) }
        var current: ResolvedType
        let rest = components.dropFirst()
        if let generic = genericParameter(first, from: scope) {
            return .unsupported("\(path) (a generic parameter of \(generic))")
        } else if let member = try lookUp(first, from: scope, place: place) {
            current = try resolved(member, place: place, depth: depth)
        } else {
            // Not in the sources: a module's name qualifying the rest, or a standard type.
            if StandardTypes.modules.contains(first), !rest.isEmpty {
                let name = rest.joined(separator: ".")
                return StandardTypes.isKnown(name) ? .standard(name) : .unknown(path)
            }
            let name = components.joined(separator: ".")
            if StandardTypes.isKnown(name) { return .standard(name) }
            guard StandardTypes.isKnown(first) else { return .unknown(path) }
            current = .standard(first)
        }
        for component in rest {
            guard let nominal = nominalPath(of: current) else { return .unknown(path) }
            if let member = try member(component, in: nominal, place: place) {
                current = try resolved(member, place: place, depth: depth)
            } else if case .standard(let name) = current, StandardTypes.isKnown(name + "." + component) {
                current = .standard(name + "." + component)
            } else {
                return .unknown(path)
            }
        }
        return current
    }

    private func resolved(_ member: Member, place: SourcePlace, depth: Int) throws(ModelError) -> ResolvedType {
        switch member {
        case .model(let index): return .model(index)
        case .value(let index): return .value(index)
        case .alias(let index):
            let alias = declarations.aliases[index]
            if let failure = alias.failure { throw failure }
            return try resolve(alias.target, from: aliasScopes[index], place: alias.place, depth: depth + 1)
        }
    }

    /// Unqualified lookup: the innermost scope that declares `name`.
    private func lookUp(_ name: String, from scope: [String], place: SourcePlace) throws(ModelError) -> Member? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            if let found = try member(name, in: Array(scope.prefix(depth)), place: place) { return found }
        }
        return nil
    }

    /// The declaration named `name` directly in `scope`; two are ambiguous, as in Swift.
    private func member(_ name: String, in scope: [String], place: SourcePlace) throws(ModelError) -> Member? {
        guard let found = scopes[scope]?[name], let first = found.first else { return nil }
        guard found.count == 1 else {
            if let failure = found.lazy.compactMap(failure(of:)).first { throw failure }
            let places = found.map { "\(self.place(of: $0))" }.joined(separator: ", ")
            let owner = scope.isEmpty ? "the module" : scope.joined(separator: ".")
            throw place.error("'\(name)' is declared more than once in \(owner) (\(places)): Swift finds it ambiguous")
        }
        return first
    }

    /// The type whose generic parameter `name` is, seen from `scope`, if one is.
    private func genericParameter(_ name: String, from scope: [String]) -> String? {
        for depth in stride(from: scope.count, through: 1, by: -1) {
            let path = Array(scope.prefix(depth))
            if scopes[path]?[name] != nil { return nil }
            if genericParameters[path]?.contains(name) == true { return path.joined(separator: ".") }
        }
        return nil
    }

    func place(of member: Member) -> SourcePlace {
        switch member {
        case .model(let index): declarations.classes[index].place
        case .value(let index): declarations.valueTypes[index].place
        case .alias(let index): declarations.aliases[index].place
        }
    }

    func failure(of member: Member) -> ModelError? {
        switch member {
        case .model(let index): declarations.classes[index].failure
        case .value(let index): declarations.valueTypes[index].failure
        case .alias(let index): declarations.aliases[index].failure
        }
    }

    // MARK: Initial values

    /// The type Swift gives a property from its initial value alone, written inside `scope`;
    /// nil when Swift needs context or code to know it.
    func inferredType(of initial: InitialValue, from scope: [String], place: SourcePlace, depth: Int = 0) throws(ModelError) -> ResolvedType? {
        guard depth < Self.depthLimit else { return nil }
        switch initial.form {
        case .literal(let type):
            // A literal's default type is Swift's own, whatever the sources declare.
            return Self.standard(type)
        case .call(let type):
            let resolved = try resolve(type, from: scope, place: place, depth: depth)
            switch resolved {
            case .unknown, .unsupported: return nil
            default: return resolved
            }
        case .member(let base, let name):
            let owner = try resolvePath(base, from: scope, place: place, depth: depth)
            if case .standard(let type) = owner {
                return StandardTypes.staticMembers[type]?.contains(name) == true ? owner : nil
            }
            guard let path = nominalPath(of: owner), let member = statics[path]?[name],
                  let memberScope = canonicalScope(member.context) else { return nil }
            if let annotation = member.annotation {
                return try resolve(annotation, from: memberScope, place: place, depth: depth + 1)
            }
            guard let value = member.initial else { return nil }
            return try inferredType(of: value, from: memberScope, place: place, depth: depth + 1)
        case .unknown:
            return nil
        }
    }

    /// True when the type declares a static member (or a case) named `name`.
    func hasStaticMember(_ name: String, of type: ResolvedType) -> Bool {
        guard let path = nominalPath(of: type) else { return false }
        return statics[path]?[name] != nil
    }

    private static func standard(_ type: DeclaredType) -> ResolvedType? {
        switch type {
        case .named(let name): .standard(name)
        case .array(let element): standard(element).map { .array($0) }
        default: nil
        }
    }
}
