extension ContentDigest {
    /// How one insert statement of the row stream fills its table's columns, in the table's
    /// order: what `StreamedPieces` needs to digest a row as `SELECT *` would read it back.
    final class RowShape: Sendable {
        /// The affinity SQLite gives a column by its declared type.
        enum Affinity {
            case integer, real, numeric, text, blob

            /// Core Data's declared types: INTEGER, FLOAT, TIMESTAMP, DECIMAL, VARCHAR, BLOB.
            init(declaredType: String) {
                switch declaredType {
                case "INTEGER": self = .integer
                case "FLOAT": self = .real
                case "VARCHAR": self = .text
                case "BLOB": self = .blob
                default: self = .numeric
                }
            }
        }

        /// Where a column's value comes from.
        enum Column {
            /// The row's `Z_PK` (parameter 1).
            case primaryKey
            /// A number written into the statement (`Z_ENT`, `Z_OPT`).
            case constant(Int64)
            /// The row's value at this offset (parameter offset + 2), stored with this affinity.
            case value(Int, Affinity)
            /// A column the statement leaves out: NULL.
            case null
        }

        let table: String
        /// The table's place in the layout (compared for each row, where its name is not).
        let tablePlace: Int
        /// The `Z_ENT` the statement writes.
        let entity: Int
        let columns: [Column]

        init(table: String, tablePlace: Int, entity: Int, columns: [Column]) {
            (self.table, self.tablePlace, self.entity, self.columns) = (table, tablePlace, entity, columns)
        }
    }

    /// The pieces of the entity tables, digested as the row stream writes their rows: the
    /// results `Plan.digest` would read back from the store, without reading it.
    ///
    /// Valid only while the rows come in the store's order (each table's rows by ascending
    /// `Z_PK`, tables one after another) and never change after (the builder checks both), and
    /// while every value is one whose stored form is certain: a value SQLite's column affinity
    /// would convert in a way not emulated here (text in a number column, an integer in a
    /// FLOAT column, -0.0, NaN, infinities, an integral REAL of 2^53 or more in a number column)
    /// makes it invalid, and the store is then read as before. `StoreDigestStreamTests` proves
    /// the emulation against SQLite.
    final class StreamedPieces {
        // One thread at a time (the row stream's writer, or the caller after it); the dynamic
        // exclusivity checks would cost a call per value.
        @exclusivity(unchecked) private(set) var isValid = true
        /// The finished pieces of each table, by the lowest `Z_PK` of their span.
        @exclusivity(unchecked) private(set) var pieces: [String: [(lower: Int64, result: PieceResult)]] = [:]
        @exclusivity(unchecked) private var shape: RowShape?
        /// The place of `shape`'s table (-1: none yet), compared for each row.
        @exclusivity(unchecked) private var tablePlace = -1
        @exclusivity(unchecked) private var lower: Int64 = 0
        @exclusivity(unchecked) private var digest: BufferedDigest?
        @exclusivity(unchecked) private var rowsByEntity: [Int: Int] = [:]
        /// The rows of the last entity digested, counted here and added to `rowsByEntity` when
        /// another comes (a dictionary update a row would cost more).
        @exclusivity(unchecked) private var entity = 0, entityRows = 0

        /// Stops digesting: the results will not be used.
        func invalidate() {
            isValid = false
            digest = nil
            pieces = [:]
        }

        /// Digests one row as the store holds it after `shape`'s insert with `values`.
        func feed(_ shape: RowShape, primaryKey: Int64, values: UnsafeBufferPointer<SQLValue?>) {
            guard isValid else { return }
            guard primaryKey >= 0 else { return invalidate() }
            let span = primaryKey / pieceSpan * pieceSpan
            if span != lower || shape.tablePlace != tablePlace || digest == nil {
                closePiece()
                (self.shape, tablePlace, lower) = (shape, shape.tablePlace, span)
                digest = BufferedDigest()
            }
            digest!.feed(byte: 0x52)  // "R"
            for column in shape.columns {
                switch column {
                case .primaryKey: digest!.feed(integer: primaryKey)
                case .constant(let number): digest!.feed(integer: number)
                case .null: digest!.feedNull()
                case .value(let offset, let affinity):
                    guard digest!.feed(stored: offset < values.count ? values[offset] : nil, as: affinity) else { return invalidate() }
                }
            }
            if shape.entity != entity {
                countEntityRows()
                entity = shape.entity
            }
            entityRows += 1
        }

        private func countEntityRows() {
            if entityRows > 0 { rowsByEntity[entity, default: 0] += entityRows }
            entityRows = 0
        }

        /// Closes the last piece; the results are in `pieces` (when `isValid`).
        func finish() {
            guard isValid else { return }
            closePiece()
        }

        private func closePiece() {
            guard let shape, let finished = digest.take() else { return }
            countEntityRows()
            pieces[shape.table, default: []].append((lower, PieceResult(digest: finished.finalizeBytes(), rowsByEntity: rowsByEntity)))
            rowsByEntity = [:]
        }
    }
}
