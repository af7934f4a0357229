/// Why a store cannot be opened for an app's model (`StoreContainer`); nothing was changed.
public struct StoreOpenError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Reason: Sendable, Hashable {
        /// There is no store file.
        case missingFile
        /// The path names a directory, a FIFO, a socket or a device.
        case notAStoreFile
        /// The store was made for another version of the model (one line per difference).
        case otherModel([String])
        /// `Z_METADATA` has no row, or one that cannot be read.
        case badMetadata
        /// The model has no fetch request template of that name.
        case noTemplate(String)
        /// The seed carries no model (`StoreLayout(modelCarriedBy:)`; seeds seedgen builds carry theirs).
        case noModel
    }

    /// What kind of problem it is.
    public var reason: Reason
    /// What is wrong, naming the file.
    public var description: String

    init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}
