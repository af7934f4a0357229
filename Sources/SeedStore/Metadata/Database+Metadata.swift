extension Database {
    /// `Z_UUID` and `Z_PLIST` of the (first) `Z_METADATA` row; nil when there is none.
    package func metadataRow() throws(SQLiteError) -> (uuid: String?, plist: [UInt8]?)? {
        try rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA LIMIT 1").first.map { ($0[0].text, $0[1].blob) }
    }
}
