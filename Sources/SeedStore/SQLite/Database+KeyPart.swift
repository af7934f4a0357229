import SeedgenSQLite

/// `seedgen_key_part(value)`: one value as a word of an object's key (`ObjectNames.keyPart`).
/// `n` for NULL, `i` and an integer's decimal digits, `r` and a double as SQLite's
/// `printf('%!.17g')` writes it, `t` or `b` and a text's or blob's bytes in upper-case
/// hexadecimal (text byte for byte, NUL included): the words SQL's `CASE typeof(…)` with `hex()`
/// and `printf()` made before (`KeyPartTests` holds the two equal). That SQL took 0.95 s for a
/// million keys (`hex()` alone 0.47 s), most of what recording a 1M-product seed spends on naming
/// its objects; with the function an install of it takes about 0.5 s less.
extension Database {
    /// Registers `seedgen_key_part` on this connection (every connection has it: `init`).
    func registerKeyPart() {
        sqlite3_create_function_v2(handle, "seedgen_key_part", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let value = arguments?[0] else { return sqlite3_result_null(context) }
            // The class first: reading a text's bytes as a blob's marks the value a blob too.
            let type = sqlite3_value_type(value)
            switch type {
            case SQLITE_INTEGER:
                sqlite3_result_text(context, "i\(sqlite3_value_int64(value))", -1, SQLITE_TRANSIENT)
            case SQLITE_FLOAT:
                // SQLite's own formatting: what `printf('%!.17g', …)` wrote, digit for digit.
                let digits = withVaList([sqlite3_value_double(value)]) { sqlite3_vmprintf("r%!.17g", $0) }
                guard let digits else { return sqlite3_result_error_nomem(context) }
                sqlite3_result_text(context, digits, -1, sqlite3_free)
            case SQLITE_TEXT, SQLITE_BLOB:
                // The pointer first, then the length (SQLite's documented order); a text's
                // bytes as stored, as `hex()` reads them.
                let start = sqlite3_value_blob(value)
                let count = start == nil ? 0 : Int(sqlite3_value_bytes(value))
                let letter = UInt8(ascii: type == SQLITE_TEXT ? "t" : "b")
                Database.resultHex(context, letter: letter, UnsafeRawBufferPointer(start: start, count: count))
            default:
                sqlite3_result_text(context, "n", 1, SQLITE_TRANSIENT)
            }
        }, nil, nil, nil)
    }

    /// Gives `letter` and `bytes` in upper-case hexadecimal as the function's text result.
    private static func resultHex(_ context: OpaquePointer?, letter: UInt8, _ bytes: UnsafeRawBufferPointer) {
        let digits: StaticString = "0123456789ABCDEF"
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 + 2 * bytes.count) { text in
            text[0] = letter
            var offset = 1
            for byte in bytes {
                text[offset] = digits.utf8Start[Int(byte >> 4)]
                text[offset + 1] = digits.utf8Start[Int(byte & 0x0F)]
                offset += 2
            }
            text.baseAddress!.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_result_text64(context, $0, sqlite3_uint64(text.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
        }
    }
}
