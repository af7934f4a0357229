import SeedStore

/// The one exit-status rule for a file a command is given (`seedgen --help`): 2 only when the
/// file cannot be read or written at all (missing, a folder or a device, no permission, a full
/// disk, an I/O failure, another process holding it); 1 when it was read and is refused for
/// what it holds (not an SQLite database, cut short or damaged, without Core Data's metadata
/// or the model a seed carries): `isFileAccessFailure`. Commands that read a store check it
/// here first, and map what reading it throws here.
enum FileRefusal {
    /// Checks the store or seed at `path` before a command reads it: a readable file that
    /// SQLite can read as a database, as long as its header says (`whole`: a seed, complete
    /// in one file).
    static func checkStore(_ path: String, whole: Bool = false) throws {
        do {
            try SeedCheck.checkFile(path, whole: whole)
        } catch {
            throw CommandFailure.file(error, "\(error)")
        }
    }
}

extension CommandFailure {
    /// A failure reading or writing a given file: `message`, with the exit status the one rule
    /// (`FileRefusal`) gives `underlying`.
    static func file(_ underlying: any Error, _ message: String) -> CommandFailure {
        CommandFailure(message: message, exitCode: isFileAccessFailure(underlying) ? 2 : 1)
    }
}
