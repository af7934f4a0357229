import Foundation
import SeedgenSQLite

/// SQL functions the predicate compiler relies on, registered on every connection that runs
/// fetch requests (`StoreFile`, `StoreConnection`).
///
/// - `seedgen_fold(text, flags)`: text folded as NSPredicate's `[c]` (case), `[d]` (diacritics)
///   or `[cd]` options fold it (Unicode-aware, unlike SQLite's ASCII-only `lower`).
/// - `seedgen_compare(op, flags, left, right)`: `CONTAINS`, `BEGINSWITH`, `ENDSWITH` or `LIKE`
///   (`*` any run, `?` one character, the whole string) after folding; NULL when a side is NULL.
extension Database {
    func registerPredicateFunctions() {
        sqlite3_create_function_v2(handle, "seedgen_fold", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let text = Database.text(arguments[0]) else {
                sqlite3_result_null(context)
                return
            }
            let flags = Database.text(arguments[1]) ?? ""
            var folded = Database.fold(text, flags)
            folded.withUTF8 { bytes in
                // With its byte length: a NUL inside the text is kept.
                sqlite3_result_text64(context, UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self),
                                      UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
        }, nil, nil, nil)
        sqlite3_create_function_v2(handle, "seedgen_compare", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let op = Database.text(arguments[0]),
                  let left = Database.text(arguments[2]), let right = Database.text(arguments[3]) else {
                sqlite3_result_null(context)
                return
            }
            let flags = Database.text(arguments[1]) ?? ""
            let (a, b) = (Database.fold(left, flags), Database.fold(right, flags))
            let result: Bool
            switch op {
            case "CONTAINS": result = b.isEmpty || a.contains(b)
            case "BEGINSWITH": result = a.hasPrefix(b)
            case "ENDSWITH": result = a.hasSuffix(b)
            case "LIKE": result = Database.wildcardMatch(Array(a), Array(b))
            default:
                sqlite3_result_error(context, "seedgen_compare: unknown operator \(op)", -1)
                return
            }
            sqlite3_result_int(context, result ? 1 : 0)
        }, nil, nil, nil)
    }

    /// A value's text, all its bytes (a NUL inside it included).
    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// `[c]`, `[d]`, `[cd]` folding; without flags the text as it is.
    static func fold(_ text: String, _ flags: String) -> String {
        var options: String.CompareOptions = []
        if flags.contains("c") { options.insert(.caseInsensitive) }
        if flags.contains("d") { options.insert(.diacriticInsensitive) }
        return options.isEmpty ? text : text.folding(options: options, locale: nil)
    }

    /// NSPredicate `LIKE`: `*` matches any run of characters, `?` exactly one; the whole string.
    static func wildcardMatch(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0, p = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t])) {
                t += 1
                p += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
