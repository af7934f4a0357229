extension Database {
    /// `Z_UUID` and `Z_PLIST` of the (first) `Z_METADATA` row; nil when there is none.
    package func metadataRow() throws(SQLiteError) -> (uuid: String?, plist: [UInt8]?)? {
        try rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA LIMIT 1").first.map { ($0[0].text, $0[1].blob) }
    }
}

extension Database {
    /// The store's metadata, decoded, with its bytes: the one read every engine makes of it
    /// (migrate, update, diff). Nil when `Z_METADATA` holds no `Z_PLIST`; throws
    /// `StoreMetadata.DecodingError` when it is not Core Data's property list.
    package func storeMetadata() throws -> (bytes: [UInt8], metadata: StoreMetadata)? {
        guard let bytes = try metadataRow()?.plist else { return nil }
        return (bytes, try StoreMetadata(decoding: bytes))
    }
}
