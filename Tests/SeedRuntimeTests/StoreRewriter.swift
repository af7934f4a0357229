import Foundation
@testable import SeedStore

/// Changes a store behind the runtime's back, the way damage or another tool would.
enum StoreRewriter {
    static func execute(_ sql: String, on path: String) throws {
        try Database(path: path, mode: .readWrite).execute(sql)
    }

    static func setMetadata(_ metadata: StoreMetadata, of path: String) throws {
        try Database(path: path, mode: .readWrite).run("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(metadata.encoded())])
    }
}
