package import Foundation
import LinkdSystem

/// Programs a test writes and then runs, and the processes the test starts, exclude each other.
///
/// A child started while a program file is being written gets a copy of the writer's descriptor, and holds it until
/// it closes what it inherited; an exec of that program in that moment fails with ETXTBSY ("Text file busy"), which
/// a test sees as a program that never ran. A start through posix_spawn returns once its child has closed them (the
/// parent waits, as for a vfork, until the child has executed), so starting under the same lock closes the window;
/// a start that goes fork's way (`diesWithParent`) narrows it to the child's first steps.
package enum ProgramFile {
    private static let gate = Lock(())

    /// Writes `text` to `url` and makes it executable (0755).
    ///
    /// - Throws: when it cannot be written.
    package static func write(_ text: String, to url: URL) throws {
        let written = gate.withLock { _ in
            Result { try Data(text.utf8).write(to: url) }.map { _ = chmod(url.path, 0o755) }
        }
        try written.get()
    }

    /// Starts `subprocess` while no program file is being written.
    static func start(_ subprocess: Subprocess) throws(SystemError) -> Subprocess.Running {
        try gate.withLock { _ in Result { () throws(SystemError) in try subprocess.spawn() } }.get()
    }
}
