import CSystemd
import Glibc

/// A program the user's service manager runs in a transient service unit of its own
/// (`org.freedesktop.systemd1.Manager.StartTransientUnit`, as `systemd-run --user --pipe` starts one): in its own
/// control group under `app.slice`, outside the sandbox and the limits of the process that asked, as desktops start
/// the apps they launch.
///
/// The unit keeps a reference from this value's bus connection (`AddRef`), so that its exit status can still be read
/// after it exits; the unit is collected once it is inactive and the connection is closed (``close()``).
package final class TransientUnit: Sendable {
    /// The unit's name: `app-linkd-<escaped app id>@<random>.service`.
    package let name: String
    /// The main process, as the manager reports it (0 when it exited before it could be read).
    package let pid: Int32
    /// Readable once the main process has exited (its pidfd, or an ended pipe when it had exited already).
    package let exitDescriptor: FileDescriptor
    private let connection: BusConnection

    private init(name: String, pid: Int32, exitDescriptor: FileDescriptor, connection: BusConnection) {
        self.name = name
        self.pid = pid
        self.exitDescriptor = exitDescriptor
        self.connection = connection
    }

    /// The unit name for a program of `appID`: `app-linkd-<appID escaped as systemd-escape does>@<16 hex>.service`
    /// (systemd.io's convention for units desktops start apps in).
    package static func name(forApp appID: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        return "app-linkd-\(escape(appID))@\(String(repeating: "0", count: 16 - random.count) + random).service"
    }

    /// `text` as `systemd-escape` writes it: `-` and every byte outside `[A-Za-z0-9:_.]` as `\xNN`, `/` as `-`, a
    /// leading `.` escaped.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "/"): escaped += "-"
            case UInt8(ascii: ".") where index == 0:
                escaped += "\\x2e"
            case UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return escaped
    }

    /// The object path of unit `name`: `/org/freedesktop/systemd1/unit/` and the name with every byte outside
    /// `[A-Za-z0-9]` as `_xx`.
    static func objectPath(of name: String) -> String {
        var path = "/org/freedesktop/systemd1/unit/"
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                path.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                path += "_" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return path
    }

    /// Whether a service manager answers on the session bus (`org.freedesktop.systemd1`), within `timeout`.
    package static func managerAnswers(timeout: Duration) -> Bool {
        guard let connection = try? BusConnection() else { return false }
        defer { connection.close() }
        do {
            try connection.call(
                destination: "org.freedesktop.systemd1",
                path: "/org/freedesktop/systemd1",
                interface: "org.freedesktop.DBus.Peer",
                member: "Ping",
                timeout: timeout
            )
            return true
        } catch {
            return false
        }
    }

    /// Asks the manager to start `arguments` (an absolute path first) as unit `name` in `app.slice`, in `/`, with
    /// `environment` alone, standard input `input` and standard output and error `output` (the manager takes
    /// copies), stopped with SIGTERM and SIGKILL 5 s later; waits (blocking) until the manager reports its main
    /// process.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` when the manager refuses or does not answer, or
    ///   the program could not be started (`failed`).
    package static func start(
        name: String,
        description: String,
        arguments: [String],
        environment: [String: String],
        input: FileDescriptor,
        output: FileDescriptor
    ) throws(SystemError) -> TransientUnit {
        let connection = try BusConnection()
        do {
            try connection.call(
                destination: "org.freedesktop.systemd1",
                path: "/org/freedesktop/systemd1",
                interface: "org.freedesktop.systemd1.Manager",
                member: "StartTransientUnit",
                timeout: .seconds(10)
            ) { sd, message in
                UnitProperties(
                    name: name,
                    description: description,
                    arguments: arguments,
                    environment: environment.map { "\($0.key)=\($0.value)" }.sorted(),
                    input: input.rawValue,
                    output: output.rawValue
                ).append(to: message, sd)
            }
            return try running(name: name, connection: connection)
        } catch {
            connection.close()
            throw error
        }
    }

    /// The unit once its main process runs (or has run): its pid and a pidfd of it.
    private static func running(name: String, connection: BusConnection) throws(SystemError) -> TransientUnit {
        let path = objectPath(of: name)
        for _ in 0..<1_000 {
            let pid = try connection.property(path, "org.freedesktop.systemd1.Service", "MainPID", UInt32.self)
            if pid > 0 {
                let pidfd = linkd_pidfd_open(pid_t(pid))
                let again = try connection.property(path, "org.freedesktop.systemd1.Service", "MainPID", UInt32.self)
                if pidfd >= 0 && again == pid {
                    return TransientUnit(
                        name: name,
                        pid: Int32(pid),
                        exitDescriptor: FileDescriptor(rawValue: pidfd),
                        connection: connection
                    )
                }
                if pidfd >= 0 { _ = Glibc.close(pidfd) }
            }
            // Before its start job runs the unit is inactive too: it has exited only once the manager says how.
            let state = try connection.property(path, "org.freedesktop.systemd1.Unit", "ActiveState", String.self)
            let code = try connection.property(path, "org.freedesktop.systemd1.Service", "ExecMainCode", Int32.self)
            if state == "failed" || (state == "inactive" && code > 0) {
                let status = try connection.property(
                    path,
                    "org.freedesktop.systemd1.Service",
                    "ExecMainStatus",
                    Int32.self
                )
                // 203 (EXIT_EXEC): the manager could not execute the program.
                if code == 1 && status == 203 {
                    throw .busFailed(operation: "start \(name)", errno: Errno(rawValue: ENOEXEC), detail: nil)
                }
                return TransientUnit(name: name, pid: 0, exitDescriptor: try endedDescriptor(), connection: connection)
            }
            usleep(500)
        }
        throw .busFailed(operation: "start \(name)", errno: Errno(rawValue: ETIMEDOUT), detail: nil)
    }

    /// A descriptor that is readable at once: the read end of a pipe whose write end is closed.
    private static func endedDescriptor() throws(SystemError) -> FileDescriptor {
        var fds: [CInt] = [0, 0]
        let made = linkd_pipe(&fds)
        guard made == 0 else {
            throw SystemError.systemCall(operation: "create a pipe", errno: Errno(rawValue: -made))
        }
        _ = Glibc.close(fds[1])
        return FileDescriptor(rawValue: fds[0])
    }

    /// The main process's exit status once the manager has seen it exit (a signal death is `128 + signal`); `nil`
    /// while it runs, or when the manager cannot be asked.
    package func exitStatusIfExited() -> Int32? {
        let path = Self.objectPath(of: name)
        let service = "org.freedesktop.systemd1.Service"
        guard let pid = try? connection.property(path, service, "MainPID", UInt32.self), pid == 0,
            let code = try? connection.property(path, service, "ExecMainCode", Int32.self), code > 0,
            let status = try? connection.property(path, service, "ExecMainStatus", Int32.self)
        else { return nil }
        return code == 1 ? status : 128 + status  // CLD_EXITED, else CLD_KILLED or CLD_DUMPED: the signal
    }

    /// Asks the manager to stop the unit: SIGTERM, then SIGKILL when it has not exited 5 s later.
    package func stop() {
        try? connection.call(
            destination: "org.freedesktop.systemd1",
            path: "/org/freedesktop/systemd1",
            interface: "org.freedesktop.systemd1.Manager",
            member: "StopUnit",
            timeout: .seconds(5)
        ) { sd, message in
            var result = name.withCString { sd.bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            if result >= 0 {
                result = "replace".withCString { sd.bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            }
            return result
        }
    }

    /// Closes the pidfd and the connection: the unit is collected once it is inactive.
    package func close() {
        exitDescriptor.close()
        connection.close()
    }
}

extension TransientUnit {
    /// Starts `arguments` in a new unit for the app `appID` (see
    /// ``start(name:description:arguments:environment:input:output:)``) with its standard output and error on a pipe
    /// whose read end comes back with it; the blocking bus calls run on a thread of ``BlockingCall``.
    ///
    /// - Throws: ``SystemError`` when the pipe cannot be made or the manager does not start it.
    package static func launch(
        appID: String,
        arguments: [String],
        environment: [String: String],
        input: FileDescriptor
    ) async throws(SystemError) -> UnitProgram {
        var fds: [CInt] = [0, 0]
        let made = linkd_pipe(&fds)
        guard made == 0 else { throw .systemCall(operation: "create a pipe", errno: Errno(rawValue: -made)) }
        let readEnd = FileDescriptor(rawValue: fds[0])
        let writeEnd = FileDescriptor(rawValue: fds[1])
        let name = Self.name(forApp: appID)
        let started = await BlockingCall.run { () -> Result<TransientUnit, SystemError> in
            defer { writeEnd.close() }  // the manager holds its own copy once the call is sent
            do throws(SystemError) {
                return .success(
                    try start(
                        name: name,
                        description: "linkd: a link's program for \(appID)",
                        arguments: arguments,
                        environment: environment,
                        input: input,
                        output: writeEnd
                    )
                )
            } catch {
                return .failure(error)
            }
        }
        switch started {
        case .success(let unit): return UnitProgram(unit, output: readEnd)
        case .failure(let error):
            readEnd.close()
            throw error
        }
    }
}
