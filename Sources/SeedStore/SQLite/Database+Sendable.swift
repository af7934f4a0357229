// Connections and the objects that use one stay on one thread at a time: they are not Sendable.
// (The runtime shares a connection only behind a lock; the row stream hands statements to its
// writer thread under its own condition.)

@available(*, unavailable)
extension Database: Sendable {}

@available(*, unavailable)
extension Statement: Sendable {}
