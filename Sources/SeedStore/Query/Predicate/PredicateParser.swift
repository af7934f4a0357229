/// A recursive-descent parser over the predicate's Unicode scalars; positions are 1-based.
struct PredicateParser {
    enum Token: Equatable {
        case word(String)          // identifier or keyword, as written
        case string(String)
        case integer(Int64)
        case real(Double)
        case variable(String)
        case symbol(String)
        case end
    }

    let text: String
    let scalars: [Unicode.Scalar]
    var index = 0
    var token: Token = .end
    var tokenStart = 0
    /// How deep `(`, `NOT`/`!` and `{` nest here: bounded, so that no predicate can exhaust the
    /// stack while it is parsed, compiled or freed.
    var depth = 0
    static let maximumDepth = 200

    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION",
    ]

    init(_ text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    mutating func parseAll() throws(PredicateSyntaxError) -> FetchPredicate {
        try advance()
        let predicate = try parseOr()
        guard token == .end else { throw error("unexpected \(describe(token)) after a complete predicate") }
        return predicate
    }

    // MARK: Predicates

    private mutating func parseOr() throws(PredicateSyntaxError) -> FetchPredicate {
        var terms = [try parseAnd()]
        while isKeyword("OR") || token == .symbol("||") {
            try advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> FetchPredicate {
        var terms = [try parseNot()]
        while isKeyword("AND") || token == .symbol("&&") {
            try advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> FetchPredicate {
        if isKeyword("NOT") || token == .symbol("!") {
            try enter()
            defer { depth -= 1 }
            try advance()
            return .not(try parseNot())
        }
        if token == .symbol("(") {
            try enter()
            defer { depth -= 1 }
            try advance()
            let inner = try parseOr()
            try expect(")")
            return inner
        }
        if isKeyword("TRUEPREDICATE") || isKeyword("FALSEPREDICATE") {
            let value = isKeyword("TRUEPREDICATE")
            try advance()
            return .constant(value)
        }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws(PredicateSyntaxError) -> PredicateComparison {
        let position = tokenStart + 1
        var quantifier = PredicateComparison.Quantifier.none
        if isKeyword("ANY") || isKeyword("SOME") {
            quantifier = .any
        } else if isKeyword("ALL") {
            quantifier = .all
        } else if isKeyword("NONE") {
            quantifier = .noElement
        }
        if quantifier != .none { try advance() }
        let left = try parseExpression()
        let operatorStart = tokenStart
        let op: PredicateComparison.Operator
        switch token {
        case .symbol("="), .symbol("=="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .word(let word):
            switch word.uppercased() {
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "BETWEEN": op = .between
            case "MATCHES": throw unsupported("MATCHES (regular expressions) is not supported")
            default: throw error("expected a comparison operator, found \(describe(token))")
            }
        default:
            throw error(token == .end ? "expected a comparison operator at the end" : "expected a comparison operator, found \(describe(token))")
        }
        try advance()
        var caseInsensitive = false
        var diacriticInsensitive = false
        if token == .symbol("[") {
            try advance()
            guard case .word(let flags) = token else { throw error("expected options such as c, d or cd inside [ ]") }
            for flag in flags.lowercased() {
                switch flag {
                case "c": caseInsensitive = true
                case "d": diacriticInsensitive = true
                default: throw error("unknown comparison option '\(flag)' (supported: c, d)")
                }
            }
            try advance()
            try expect("]")
        }
        let right = try parseExpression()
        if op == .between, case .aggregate(let bounds) = right, bounds.count != 2 {
            tokenStart = operatorStart
            throw error("BETWEEN needs two bounds: {low, high}")
        }
        return PredicateComparison(quantifier: quantifier, left: left, op: op, right: right,
                                   caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, position: position)
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> PredicateExpression {
        let expression = try parseValue()
        if case .symbol(let symbol) = token, ["+", "-", "*", "/", "**", ":="].contains(symbol) {
            throw unsupported("arithmetic ('\(symbol)') is not supported in fetch request templates")
        }
        return expression
    }

    private mutating func parseValue() throws(PredicateSyntaxError) -> PredicateExpression {
        let start = tokenStart + 1
        switch token {
        case .string(let value):
            try advance()
            return .string(value)
        case .integer(let value):
            try advance()
            return .integer(value)
        case .real(let value):
            try advance()
            return .real(value)
        case .variable(let name):
            try advance()
            return .variable(name, position: start)
        case .symbol("-"):
            try advance()
            switch token {
            case .integer(let value):
                try advance()
                return .integer(-value)
            case .real(let value):
                try advance()
                return .real(-value)
            default:
                throw error("'-' must be followed by a number here")
            }
        case .symbol("{"):
            try enter()
            defer { depth -= 1 }
            try advance()
            var items: [PredicateExpression] = []
            if token != .symbol("}") {
                items.append(try parseExpression())
                while token == .symbol(",") {
                    try advance()
                    items.append(try parseExpression())
                }
            }
            try expect("}")
            return .aggregate(items)
        case .symbol("#"), .symbol("@"):
            return try parseKeyPath(start: start)
        case .word(let word):
            switch word.uppercased() {
            case "TRUE", "YES":
                try advance()
                return .boolean(true)
            case "FALSE", "NO":
                try advance()
                return .boolean(false)
            case "NULL", "NIL":
                try advance()
                return .null
            case "CAST":
                return try parseCast()
            case "SUBQUERY", "FUNCTION", "FETCH", "SELF", "ANYKEY", "FIRST", "LAST", "SIZE":
                throw unsupported("\(word.uppercased()) is not supported in fetch request templates")
            default:
                if Self.reserved.contains(word.uppercased()) {
                    throw error("expected a value, found the keyword \(word.uppercased()) (write #\(word) for a key of that name)")
                }
                return try parseKeyPath(start: start)
            }
        case .end:
            throw error("expected a value at the end")
        default:
            throw error("expected a value, found \(describe(token))")
        }
    }

    private mutating func parseKeyPath(start: Int) throws(PredicateSyntaxError) -> PredicateExpression {
        var parts: [String] = []
        while true {
            switch token {
            case .symbol("#"):
                try advance()
                guard case .word(let word) = token else { throw error("expected a key after '#'") }
                parts.append(word)
            case .symbol("@"):
                let at = tokenStart
                try advance()
                guard case .word(let word) = token else { throw error("expected an operator such as count after '@'") }
                guard word == "count" else {
                    var failure = unsupported("@\(word) is not supported (only @count)")
                    failure.position = at + 1
                    throw failure
                }
                parts.append("@count")
            case .word(let word) where !Self.reserved.contains(word.uppercased()):
                parts.append(word)
            default:
                throw error("expected a key, found \(describe(token))")
            }
            try advance()
            if token == .symbol("(") { throw unsupported("functions are not supported in fetch request templates") }
            if token == .symbol("[") && parts.last != "@count" {
                // `[c]` after a key path would be an operator option: only valid after an operator.
                throw unsupported("indexing a key path ([FIRST], [SIZE], ...) is not supported")
            }
            guard token == .symbol(".") else { break }
            if parts.last == "@count" { throw error("@count must end the key path") }
            try advance()
        }
        return .keyPath(parts, position: start)
    }

    private mutating func parseCast() throws(PredicateSyntaxError) -> PredicateExpression {
        try advance()
        try expect("(")
        let value: Double
        switch token {
        case .integer(let number): value = Double(number)
        case .real(let number): value = number
        default: throw error("CAST takes a number of seconds since 2001-01-01 here")
        }
        try advance()
        try expect(",")
        guard case .string(let type) = token, type == "NSDate" else {
            throw unsupported("only CAST(seconds, \"NSDate\") is supported")
        }
        try advance()
        try expect(")")
        return .date(value)
    }
}
