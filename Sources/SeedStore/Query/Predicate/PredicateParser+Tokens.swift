/// The parser's tokens: keywords, symbols, strings and numbers, read from the predicate's
/// scalars, and the errors that name where they are.
extension PredicateParser {
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = token { return word.uppercased() == keyword }
        return false
    }

    mutating func expect(_ symbol: String) throws(PredicateSyntaxError) {
        guard token == .symbol(symbol) else {
            throw error(token == .end ? "expected '\(symbol)' at the end" : "expected '\(symbol)', found \(describe(token))")
        }
        try advance()
    }

    func describe(_ token: Token) -> String {
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

    func error(_ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(message: message, position: tokenStart + 1, text: text)
    }

    /// One level deeper; refused past `maximumDepth`, at the token that goes too deep.
    mutating func enter() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nested more than \(Self.maximumDepth) levels deep (parentheses, NOT, lists)")
        }
    }

    /// A valid NSPredicate construct that seedgen cannot run (`SUBQUERY`, functions, …).
    func unsupported(_ message: String) -> PredicateSyntaxError {
        var failure = error(message)
        failure.isUnsupportedFeature = true
        return failure
    }

    func scalar(at offset: Int) -> Unicode.Scalar? {
        offset < scalars.count ? scalars[offset] : nil
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    mutating func advance() throws(PredicateSyntaxError) {
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

    mutating func lexString(quote: Unicode.Scalar) throws(PredicateSyntaxError) -> String {
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

    mutating func lexNumber() throws(PredicateSyntaxError) -> Token {
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
