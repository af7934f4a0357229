import Testing
@testable import SeedStore

@Suite("NSPredicate format parser")
struct FetchPredicateTests {
    static func comparison(_ text: String) throws -> PredicateComparison {
        guard case .comparison(let comparison) = try FetchPredicate(parsing: text) else {
            Issue.record("'\(text)' is not one comparison")
            throw PredicateSyntaxError(message: "", position: 0, text: text)
        }
        return comparison
    }

    @Test("comparisons, spellings of operators, options and literals")
    func comparisons() throws {
        let equal = try Self.comparison(#"name == "Deutschland""#)
        #expect(equal.left == .keyPath(["name"], position: 1) && equal.op == .equal && equal.right == .string("Deutschland"))
        #expect(try Self.comparison("name = 'a\"b'").right == .string("a\"b"))
        #expect(try Self.comparison(#"name == "tab\there \u00e9 \x41 \101""#).right == .string("tab\there é A A"))
        #expect(try Self.comparison("age <> 3").op == .notEqual)
        #expect(try Self.comparison("age =< 3").op == .lessOrEqual)
        #expect(try Self.comparison("age => 3").op == .greaterOrEqual)
        #expect(try Self.comparison("age > -2.5e1").right == .real(-25))
        #expect(try Self.comparison("flags == 0x1F").right == .integer(31))
        #expect(try Self.comparison("flags == 0b101").right == .integer(5))
        #expect(try Self.comparison("active == YES").right == .boolean(true))
        #expect(try Self.comparison("city == nil").right == .null)
        #expect(try Self.comparison(#"date > CAST(722000000.5, "NSDate")"#).right == .date(722000000.5))
        let like = try Self.comparison(#"name like[CD] "d*land""#)
        #expect(like.op == .like && like.caseInsensitive && like.diacriticInsensitive)
        let between = try Self.comparison("number BETWEEN {1, $MAX}")
        #expect(between.right == .aggregate([.integer(1), .variable("MAX", position: 20)]))
        let any = try Self.comparison(#"ANY players.name BeginsWith[c] $PREFIX"#)
        #expect(any.quantifier == .any && any.left == .keyPath(["players", "name"], position: 5) && any.caseInsensitive)
        #expect(try Self.comparison("players.@count >= 23").left == .keyPath(["players", "@count"], position: 1))
        #expect(try Self.comparison("#size == 3").left == .keyPath(["size"], position: 1))
        // Keywords only match whole words.
        #expect(try Self.comparison("inventory IN {1, 2}").left == .keyPath(["inventory"], position: 1))
        #expect(try Self.comparison("noTitle == NO").left == .keyPath(["noTitle"], position: 1))
    }

    @Test("AND binds tighter than OR; NOT, !, &&, || and parentheses")
    func compounds() throws {
        let a = FetchPredicate.comparison(PredicateComparison(left: .keyPath(["a"], position: 1), op: .equal, right: .integer(1), position: 1))
        let parsed = try FetchPredicate(parsing: "a == 1 OR b == 2 AND c == 3")
        guard case .or(let terms) = parsed, terms.count == 2, terms[0] == a, case .and(let inner) = terms[1] else {
            Issue.record("unexpected tree \(parsed)")
            return
        }
        #expect(inner.count == 2)
        let symbolic = try FetchPredicate(parsing: "!(a == 1) && (b == 2 || TRUEPREDICATE)")
        guard case .and(let parts) = symbolic, case .not = parts[0], case .or(let alternatives) = parts[1] else {
            Issue.record("unexpected tree \(symbolic)")
            return
        }
        #expect(alternatives[1] == .constant(true))
        #expect(try FetchPredicate(parsing: "NOT NOT FALSEPREDICATE") == .not(.not(.constant(false))))
        #expect(try FetchPredicate(parsing: "a == $A AND b IN $B OR c == $A").variableNames == ["A", "B"])
    }

    @Test("syntax errors name the character where they are", arguments: [
        ("name == ", 9, "expected a value at the end"),
        ("name === 'x'", 8, "expected a value, found '='"),
        ("name MATCHES '[A-Z]+'", 6, "MATCHES"),
        ("name == 'open", 9, "the string is not closed"),
        ("(name == 'x'", 13, "expected ')' at the end"),
        ("name == 'x' name", 13, "after a complete predicate"),
        ("IN == 3", 1, "the keyword IN"),
        ("price * qty > 100", 7, "arithmetic"),
        ("name ==[q] 'x'", 9, "unknown comparison option 'q'"),
        ("abs(x) < 5", 4, "functions are not supported"),
        ("players.@sum.goals > 3", 9, "@sum is not supported"),
        ("x == 12abc", 6, "is not a number"),
        ("number BETWEEN {1, 2, 3}", 8, "BETWEEN needs two bounds"),
        ("name == %@", 9, "unexpected character '%'"),
    ])
    func syntaxErrors(text: String, position: Int, message: String) {
        do {
            let parsed = try FetchPredicate(parsing: text)
            Issue.record("'\(text)' parsed as \(parsed)")
        } catch {
            #expect(error.position == position, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("at character \(position) of '\(text)': "))
        }
    }
}
