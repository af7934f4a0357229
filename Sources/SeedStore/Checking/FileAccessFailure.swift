/// Whether `error`, met reading or writing a file, says the file could not be read or written
/// at all (missing, not a file, no permission, a full disk, an I/O failure, another connection
/// holding it), rather than that what it holds was refused (not an SQLite database, cut short
/// or damaged). The one rule the engines' error reasons and every command's exit status follow:
/// the first is exit 2, the second exit 1.
package func isFileAccessFailure(_ error: any Error) -> Bool {
    switch error {
    case let error as SQLiteError: error.isAccessFailure
    case let error as SeedCheck.Failure: error.isAccessFailure
    case is StoreFile.OpenError: true
    case let error as StoreOpenError: error.reason == .missingFile || error.reason == .notAStoreFile
    default: false
    }
}
