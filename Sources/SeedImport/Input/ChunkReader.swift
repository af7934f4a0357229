import Foundation

/// Reads a file in chunks on a thread of its own, one chunk ahead of its caller: while a parser
/// works through one chunk, the kernel copies the next into the other buffer. The copy is the
/// parsing thread's system time otherwise (about 0.1 s of the 1M catalog's 158 MB).
///
/// `next()` hands out the chunks in the file's order, each valid until the next call; an empty
/// one is the end. A failure to read is thrown by the `next()` that reaches it, in its place.
/// The thread ends at the end of the file, at a failure, or at `close()`, which waits for it:
/// call it when done (the thread holds the reader until it ends), before the file is closed.
final class ChunkReader: @unchecked Sendable {
    private let file: InputFile
    private let buffers: [UnsafeMutableRawBufferPointer]

    // Shared with the reading thread, under `condition`.
    private let condition = NSCondition()
    /// Chunks read and not handed out yet, in order: the buffer, and its byte count or the failure.
    private var filled: [(buffer: Int, result: Result<Int, InputError>)] = []
    /// Buffers the thread may read into.
    private var free: [Int]
    private var stopping = false
    private let exited = DispatchSemaphore(value: 0)

    /// The buffer handed out last: free again at the next call (caller's thread only).
    private var handedOut: Int?
    /// Once `next()` gave the end (true) or threw a failure (kept), every later call does the same.
    private var ended = false
    private var failure: InputError?
    private var joined = false

    /// Starts reading `file` from its current offset, in chunks of `chunkSize` bytes.
    init(file: InputFile, chunkSize: Int) throws(InputError) {
        // Opened here, on the caller's thread: the reading thread only reads.
        try file.prepareToRead()
        self.file = file
        buffers = (0..<2).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16) }
        free = Array(buffers.indices)
        Thread.detachNewThread { [self] in run() }
    }

    deinit {
        close()
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next chunk of the file (empty at its end), valid until the next call.
    func next() throws(InputError) -> UnsafeRawBufferPointer {
        if let failure { throw failure }
        if ended { return UnsafeRawBufferPointer(start: nil, count: 0) }
        condition.lock()
        if let handedOut {
            free.append(handedOut)
            self.handedOut = nil
            condition.broadcast()
        }
        while filled.isEmpty { condition.wait() }
        let (buffer, result) = filled.removeFirst()
        condition.unlock()
        handedOut = buffer
        switch result {
        case .failure(let error):
            failure = error
            throw error
        case .success(let count):
            ended = count == 0
            return UnsafeRawBufferPointer(rebasing: buffers[buffer][0..<count])
        }
    }

    /// Stops the reading thread and waits for it (it may be in the middle of a read).
    func close() {
        guard !joined else { return }
        joined = true
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        exited.wait()
    }

    private func run() {
        condition.lock()
        while true {
            while free.isEmpty && !stopping { condition.wait() }
            if stopping { break }
            let buffer = free.removeFirst()
            condition.unlock()
            let result = Result { () throws(InputError) in try file.read(into: buffers[buffer]) }
            condition.lock()
            filled.append((buffer, result))
            condition.broadcast()
            // The end of the file, or a failure: nothing more to read.
            if case .success(let count) = result, count > 0 { continue }
            break
        }
        condition.unlock()
        exited.signal()
    }
}
