extension FetchPredicate {
    /// Parses an NSPredicate format string (the subset Core Data's SQLite store runs).
    ///
    /// Keywords are case-insensitive; `AND` binds tighter than `OR` (the SQL convention);
    /// `MATCHES`, arithmetic, functions and `SUBQUERY` are refused with their position.
    public init(parsing text: String) throws(PredicateSyntaxError) {
        var parser = PredicateParser(text)
        self = try parser.parseAll()
    }
}

/// A recursive-descent parser over the predicate's Unicode scalars; positions are 1-based.
struct PredicateParser {
    private enum Token: Equatable {
        case word(String)          // identifier or keyword, as written
        case string(String)
        case integer(Int64)
        case real(Double)
        case variable(String)
        case symbol(String)
        case end
    }

    private let text: String
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var token: Token = .end
    private var tokenStart = 0
    /// How deep `(`, `NOT`/`!` and `{` nest here: bounded, so that no predicate can exhaust the
    /// stack while it is parsed, compiled or freed.
    private var depth = 0
    static let maximumDepth = 200

    private static let reserved: Set<String> = [
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

    // MARK: Tokens

    private func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = token { return word.uppercased() == keyword }
        return false
    }

    private mutating func expect(_ symbol: String) throws(PredicateSyntaxError) {
        guard token == .symbol(symbol) else {
            throw error(token == .end ? "expected '\(symbol)' at the end" : "expected '\(symbol)', found \(describe(token))")
        }
        try advance()
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let word): Self.reserved.contains(word.uppercased()) ? "the keyword \(word.uppercased())" : "'\(word)'"
        case .string(let value): "the string \"\(value)\""
        case .integer(let value): "the number \(value)"
        case .real(let value): "the number \(value)"
        case .variable(let name): "$\(name)"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }

    private func error(_ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(message: message, position: tokenStart + 1, text: text)
    }

    /// One level deeper; refused past `maximumDepth`, at the token that goes too deep.
    private mutating func enter() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nested more than \(Self.maximumDepth) levels deep (parentheses, NOT, lists)")
        }
    }

    /// A valid NSPredicate construct that seedgen cannot run (`SUBQUERY`, functions, …).
    private func unsupported(_ message: String) -> PredicateSyntaxError {
        var failure = error(message)
        failure.isUnsupportedFeature = true
        return failure
    }

    private func scalar(at offset: Int) -> Unicode.Scalar? {
        offset < scalars.count ? scalars[offset] : nil
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    private mutating func advance() throws(PredicateSyntaxError) {
        while let next = scalar(at: index), next.properties.isWhitespace { index += 1 }
        tokenStart = index
        guard let first = scalar(at: index) else {
            token = .end
            return
        }
        if Self.isIdentifierStart(first) {
            var word = ""
            while let next = scalar(at: index), Self.isIdentifierPart(next) {
                word.unicodeScalars.append(next)
                index += 1
            }
            token = .word(word)
        } else if first == "$" {
            index += 1
            var name = ""
            while let next = scalar(at: index), Self.isIdentifierPart(next) {
                name.unicodeScalars.append(next)
                index += 1
            }
            guard !name.isEmpty else { throw error("expected a variable name after '$'") }
            token = .variable(name)
        } else if first == "\"" || first == "'" {
            token = .string(try lexString(quote: first))
        } else if ("0"..."9").contains(first) || (first == "." && scalar(at: index + 1).map { ("0"..."9").contains($0) } == true) {
            token = try lexNumber()
        } else {
            let two = scalar(at: index + 1).map { String(first) + String($0) } ?? ""
            if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":="].contains(two) {
                index += 2
                token = .symbol(two)
            } else if "(){}[],.=<>!#@+-*/".unicodeScalars.contains(first) {
                index += 1
                token = .symbol(String(first))
            } else {
                throw error("unexpected character '\(first)'")
            }
        }
    }

    private mutating func lexString(quote: Unicode.Scalar) throws(PredicateSyntaxError) -> String {
        index += 1
        var value = ""
        while true {
            guard let next = scalar(at: index) else { throw error("the string is not closed") }
            index += 1
            if next == quote { return value }
            guard next == "\\" else {
                value.unicodeScalars.append(next)
                continue
            }
            guard let escaped = scalar(at: index) else { throw error("the string is not closed") }
            index += 1
            switch escaped {
            case "n": value += "\n"
            case "t": value += "\t"
            case "r": value += "\r"
            case "a": value += "\u{07}"
            case "b": value += "\u{08}"
            case "f": value += "\u{0C}"
            case "v": value += "\u{0B}"
            case "x", "u":
                let digits = escaped == "x" ? 2 : 4
                var code: UInt32 = 0
                for _ in 0..<digits {
                    guard let digit = scalar(at: index), let nibble = UInt32(String(digit), radix: 16) else {
                        throw error("\\\(escaped) needs \(digits) hexadecimal digits")
                    }
                    code = code * 16 + nibble
                    index += 1
                }
                guard let decoded = Unicode.Scalar(code) else { throw error("\\\(escaped) names no character") }
                value.unicodeScalars.append(decoded)
            case "0"..."7":
                var code = escaped.value - 48
                for _ in 0..<2 {
                    guard let digit = scalar(at: index), ("0"..."7").contains(digit) else { break }
                    code = code * 8 + digit.value - 48
                    index += 1
                }
                value.unicodeScalars.append(Unicode.Scalar(code)!)
            default:
                value.unicodeScalars.append(escaped)  // \" \' \\ and any other character as itself
            }
        }
    }

    private mutating func lexNumber() throws(PredicateSyntaxError) -> Token {
        let start = index
        if scalar(at: index) == "0", let prefix = scalar(at: index + 1), "xXoObB".unicodeScalars.contains(prefix) {
            let radix = "xX".unicodeScalars.contains(prefix) ? 16 : "oO".unicodeScalars.contains(prefix) ? 8 : 2
            index += 2
            var digits = ""
            while let next = scalar(at: index), Self.isIdentifierPart(next) {
                digits.unicodeScalars.append(next)
                index += 1
            }
            guard let value = Int64(digits, radix: radix) else { throw error("'\(String(String.UnicodeScalarView(scalars[start..<index])))' is not a number") }
            return .integer(value)
        }
        var literal = ""
        var isReal = false
        while let next = scalar(at: index) {
            if ("0"..."9").contains(next) {
                literal.unicodeScalars.append(next)
            } else if next == "." && !isReal && scalar(at: index + 1).map({ ("0"..."9").contains($0) }) == true {
                isReal = true
                literal.unicodeScalars.append(next)
            } else if next == "e" || next == "E" {
                isReal = true
                literal.unicodeScalars.append(next)
                if let sign = scalar(at: index + 1), sign == "-" || sign == "+" {
                    literal.unicodeScalars.append(sign)
                    index += 1
                }
            } else {
                break
            }
            index += 1
        }
        if let next = scalar(at: index), Self.isIdentifierStart(next) {
            throw error("'\(literal)\(next)…' is not a number")
        }
        if !isReal, let value = Int64(literal) { return .integer(value) }
        guard let value = Double(literal) else { throw error("'\(literal)' is not a number") }
        return .real(value)
    }
}
