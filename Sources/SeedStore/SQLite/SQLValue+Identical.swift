extension SQLValue {
    /// True when both are the same value byte for byte: the same storage class, doubles by
    /// their bit pattern (-0 is not 0), text by its UTF-8 bytes (NFC and NFD differ).
    package func isIdentical(to other: SQLValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }
}
