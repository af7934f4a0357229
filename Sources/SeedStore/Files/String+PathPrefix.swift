extension String {
    /// The message without the `path: ` it begins with, for a message that names `path` itself
    /// (`cannot update P: …`): a path is said once.
    package func droppingPathPrefix(_ path: String) -> String {
        hasPrefix(path + ": ") ? String(dropFirst(path.count + 2)) : self
    }
}
