import LinkdSystem

/// Where a command writes and reads: the process's standard streams, or buffers in tests.
package struct Console: Sendable {
    /// Writes to standard output.
    package var write: @Sendable (String) -> Void
    /// Writes to standard error.
    package var writeError: @Sendable (String) -> Void
    /// Reads the next chunk of standard input; an empty result is the end.
    package var readInput: @Sendable () -> [UInt8]

    /// Creates a console from its three streams.
    package init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable () -> [UInt8]
    ) {
        self.write = write
        self.writeError = writeError
        self.readInput = readInput
    }

    /// The process's standard output, standard error and standard input.
    package static let standard = Console(
        write: { FileDescriptor.standardOutput.writeAll($0) },
        writeError: { FileDescriptor.standardError.writeAll($0) },
        // An error reading standard input (it was closed under us, say) ends it, as the end of the stream does.
        readInput: { (try? FileDescriptor.standardInput.readSome().get()) ?? [] }
    )
}
