import CSystemd
import Glibc

/// A connection to the session bus served from a thread of its own: it may own a name, serve an object, send
/// signals and call methods, and hears the signals it watches. Every use of sd-bus happens on that thread (sd-bus
/// objects are not thread-safe); other threads hand it work (``perform(_:)``), and what it hears goes to the
/// handlers, which must not block it.
package final class BusEndpoint: Sendable {
    private let table: SystemdTable
    /// libsystemd's calls.
    var sd: linkd_systemd_api { table.api }
    let bus: BusHandle
    private let wakeFD: CInt
    /// Work for the thread, and whether it still takes any.
    private let work = Lock<(jobs: [@Sendable (BusHandle?) -> Void], open: Bool)>(([], true))
    /// What the endpoint serves and watches (set up on its thread, held until it closes).
    let handlers = Lock<Handlers>(Handlers())

    struct Handlers: Sendable {
        var object: ServedObject?
        /// The signal watches, held here as long as the connection (sd-bus holds unretained pointers to them).
        var watches: [BusSignalWatch] = []
        /// The calls whose replies are awaited: a close answers each with an error.
        var calls: [ObjectIdentifier: ReplyWaiter] = [:]
        var closed: [@Sendable () -> Void] = []
    }

    /// Connects to the session bus at `address`, else the user's (`$DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), and starts the endpoint's thread.
    ///
    /// - Throws: ``SystemError/busFailed(operation:errno:detail:)`` when there is no bus to connect to, or a thread
    ///   cannot start; ``SystemError/libsystemdMissing(reason:)``.
    package init(address: String? = nil) throws(SystemError) {
        let sd = try Libsystemd.calls().pointee
        var opened: OpaquePointer?
        let result = address.map { Self.connect(to: $0, sd, &opened) } ?? sd.bus_open_user(&opened)
        guard result >= 0, let opened else {
            throw .busFailed(operation: "connect to the session bus", errno: Errno(rawValue: -result), detail: nil)
        }
        let wake = linkd_eventfd_create()
        guard wake >= 0 else {
            _ = sd.bus_flush_close_unref(opened)
            throw .systemCall(operation: "create an eventfd", errno: Errno(rawValue: -wake))
        }
        (table, bus, wakeFD) = (SystemdTable(api: sd), BusHandle(pointer: opened), wake)
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<BusEndpoint>.fromOpaque(argument).takeRetainedValue().serve()
                return nil
            },
            Unmanaged.passRetained(self).toOpaque()
        )
        guard started == 0 else {
            _ = sd.bus_flush_close_unref(opened)
            Glibc.close(wake)
            throw .systemCall(operation: "start the bus thread", errno: Errno(rawValue: started))
        }
        pthread_detach(thread)
    }

    deinit { Glibc.close(wakeFD) }

    /// Connects to the bus at `address` as a client (`sd_bus_new`, `sd_bus_set_address`, `sd_bus_start`).
    private static func connect(to address: String, _ sd: linkd_systemd_api, _ opened: inout OpaquePointer?) -> Int32 {
        var bus: OpaquePointer?
        var result = sd.bus_new(&bus)
        guard result >= 0, let bus else { return result }
        result = sd.bus_set_address(bus, address)
        if result >= 0 { result = sd.bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd.bus_start(bus) }
        guard result >= 0 else {
            _ = sd.bus_unref(bus)
            return result
        }
        opened = bus
        return 0
    }

    /// Runs `body` on the endpoint's thread with the connection and returns its result; `nil` when the endpoint has
    /// closed (or closes before it ran).
    func perform<Result: Sendable>(
        _ body: @escaping @Sendable (linkd_systemd_api, OpaquePointer) -> Result
    ) async -> Result? {
        let table = table
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
            let resume = Lock<CheckedContinuation<Result?, Never>?>(continuation)
            let taken = enqueue { handle in
                guard let continuation = resume.withLock({ value in value.take() }) else { return }
                continuation.resume(returning: handle.map { body(table.api, $0.pointer) })
            }
            if !taken { resume.withLock { $0.take() }?.resume(returning: nil) }
        }
    }

    /// Hands `job` to the thread; `false` when the endpoint has closed. A job gets `nil` when the endpoint closes
    /// before it ran.
    @discardableResult
    func enqueue(_ job: @escaping @Sendable (BusHandle?) -> Void) -> Bool {
        let taken = work.withLock { state in
            guard state.open else { return false }
            state.jobs.append { job($0) }
            return true
        }
        if taken { wake() }
        return taken
    }

    /// Closes the connection once the work handed to it before has run; what is handed to it later is not run.
    package func close() {
        work.withLock { $0.open = false }
        wake()
    }

    /// The unique name of this connection on the bus (`:1.42`).
    package func uniqueName() async -> String? {
        await perform { sd, bus in
            var name: UnsafePointer<CChar>?
            return sd.bus_get_unique_name(bus, &name) >= 0 ? name.map { String(cString: $0) } : nil
        } ?? nil
    }

    /// The thread: processes the bus and runs the jobs handed to it, until the endpoint closes or the bus goes.
    private func serve() {
        let pointer = bus.pointer
        while true {
            let (jobs, open) = work.withLock { state in
                defer { state.jobs = [] }
                return (state.jobs, state.open)
            }
            for job in jobs { job(bus) }
            guard open else { break }
            let processed = sd.bus_process(pointer, nil)
            if processed > 0 { continue }
            if processed < 0 || !waitForWork(pointer) { break }
        }
        let left = work.withLock { state in
            defer { state = ([], false) }
            return state.jobs
        }
        for job in left { job(nil) }
        let (closed, calls) = handlers.withLock { handlers in
            defer { handlers = Handlers() }
            return (handlers.closed, handlers.calls.values)
        }
        _ = sd.bus_flush_close_unref(pointer)
        for call in calls { call.finish(.failure(BusError(name: "io.linkd.Error.Closed", message: "the bus closed"))) }
        for action in closed { action() }
    }

    /// Waits until the bus has something to read or write, its next timeout is due, or the eventfd says work was
    /// handed over (which it then reads). `false` when the wait itself failed.
    private func waitForWork(_ pointer: OpaquePointer) -> Bool {
        let fd = sd.bus_get_fd(pointer)
        let events = sd.bus_get_events(pointer)
        var until = UInt64.max
        guard fd >= 0, events >= 0, sd.bus_get_timeout(pointer, &until) >= 0 else { return false }
        // sd-bus's timeouts (a call's reply, the authentication) are rare and coarse: a wait of at most 50 ms while one
        // is pending lets sd_bus_process see it pass, with no clock of sd-bus's own to read here.
        let timeout: Int32 = until == .max ? -1 : 50
        var descriptors = [
            pollfd(fd: fd, events: Int16(events), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        if poll(&descriptors, 2, timeout) < 0 { return errno == EINTR }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            var count: UInt64 = 0
            _ = read(wakeFD, &count, MemoryLayout<UInt64>.size)
        }
        return true
    }

    /// Wakes the thread from its wait.
    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs `action` once the endpoint has closed: by ``close()``, or because the bus went away.
    package func whenClosed(_ action: @escaping @Sendable () -> Void) {
        let isOpen = handlers.withLock { handlers in
            let open = work.withLock { $0.open }
            if open { handlers.closed.append(action) }
            return open
        }
        if !isOpen { action() }
    }
}

/// libsystemd's table of calls: function pointers that never change once loaded.
struct SystemdTable: @unchecked Sendable {
    let api: linkd_systemd_api
}

/// A signal the endpoint heard.
package struct BusSignal: Sendable {
    package let sender: String
    package let path: String
    package let interface: String
    package let member: String
    package let arguments: [BusValue]
}
