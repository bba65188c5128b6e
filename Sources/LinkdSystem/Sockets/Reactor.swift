import CSystemd
import Glibc

/// Readiness of non-blocking descriptors for async code: one thread waits in `epoll_wait(2)` for every descriptor
/// that a task awaits, so that no blocking `accept`/`read`/`write` ever runs on the cooperative pool.
///
/// Each wait is one-shot (`EPOLLONESHOT`) and ends when the descriptor is ready, its deadline passes
/// (``ReactorError/timedOut``) or the task is cancelled (`CancellationError`).
package final class Reactor: Sendable {
    /// The process's reactor; its thread starts on first use and runs for the life of the process.
    package static let shared: Reactor = {
        do {
            return try Reactor()
        } catch {
            preconditionFailure("cannot create the epoll reactor: \(error)")
        }
    }()

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
        var deadline: ContinuousClock.Instant?
    }

    private struct State {
        var waiters: [CInt: Waiter] = [:]
        var armed: Set<CInt> = []
        var nextID: UInt64 = 0
    }

    private let epollFD: CInt
    private let wakeFD: CInt
    private let state = Lock(State())

    private init() throws(SystemError) {
        let epoll = linkd_epoll_create()
        guard epoll >= 0 else { throw .systemCall(operation: "create an epoll set", errno: Errno(rawValue: -epoll)) }
        let wake = linkd_eventfd_create()
        guard wake >= 0 else { throw .systemCall(operation: "create an eventfd", errno: Errno(rawValue: -wake)) }
        epollFD = epoll
        wakeFD = wake
        _ = linkd_epoll_arm(epoll, wake, 0, 1)
        var thread = pthread_t()
        let reactor = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread,
            nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Reactor>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            },
            reactor
        )
        guard created == 0 else {
            throw .systemCall(operation: "start the reactor thread", errno: Errno(rawValue: created))
        }
        pthread_detach(thread)
    }

    /// Suspends until `descriptor` is readable (or `writable`), `deadline` passes, or the task is cancelled.
    ///
    /// - Throws: ``ReactorError/timedOut``, `CancellationError`, or ``SystemError`` when epoll refuses the descriptor.
    package func wait(
        for descriptor: FileDescriptor,
        writable: Bool = false,
        deadline: ContinuousClock.Instant? = nil
    ) async throws {
        let fd = descriptor.rawValue
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let armError: SystemError? = state.withLock { state in
                    precondition(state.waiters[fd] == nil, "one wait per descriptor at a time")
                    let wasArmed = state.armed.contains(fd)
                    var result = linkd_epoll_arm(epollFD, fd, writable ? 1 : 0, wasArmed ? 0 : 1)
                    if result == -ENOENT || result == -EEXIST {
                        result = linkd_epoll_arm(epollFD, fd, writable ? 1 : 0, result == -ENOENT ? 1 : 0)
                    }
                    guard result == 0 else {
                        return .systemCall(operation: "watch a descriptor", errno: Errno(rawValue: -result))
                    }
                    state.armed.insert(fd)
                    state.waiters[fd] = Waiter(id: id, continuation: continuation, deadline: deadline)
                    return nil
                }
                if let armError {
                    continuation.resume(throwing: armError)
                    return
                }
                if Task.isCancelled {
                    // Cancelled before the waiter existed: the cancellation handler found nothing to resume.
                    let waiter = state.withLock { state -> Waiter? in
                        guard state.waiters[fd]?.id == id else { return nil }
                        return state.waiters.removeValue(forKey: fd)
                    }
                    waiter?.continuation.resume(throwing: CancellationError())
                } else if deadline != nil {
                    wake()
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard state.waiters[fd]?.id == id else { return nil }
                return state.waiters.removeValue(forKey: fd)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Stops watching `descriptor`; call it before closing a descriptor that was waited on.
    package func forget(_ descriptor: FileDescriptor) {
        let fd = descriptor.rawValue
        let waiter = state.withLock { state -> Waiter? in
            state.armed.remove(fd)
            _ = linkd_epoll_remove(epollFD, fd)
            return state.waiters.removeValue(forKey: fd)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }

    private func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    private func run() {
        var ready = [CInt](repeating: 0, count: 64)
        while true {
            let timeout = state.withLock { state -> CInt in
                guard let nearest = state.waiters.values.compactMap(\.deadline).min() else { return -1 }
                let remaining = nearest - ContinuousClock.now
                let milliseconds =
                    remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000
                return CInt(clamping: max(0, milliseconds + 1))
            }
            let count = linkd_epoll_wait(epollFD, &ready, 64, timeout)
            var resumed: [CheckedContinuation<Void, any Error>] = []
            var expired: [CheckedContinuation<Void, any Error>] = []
            state.withLock { state in
                for fd in ready.prefix(Int(max(0, count))) {
                    if fd == wakeFD {
                        var value: UInt64 = 0
                        _ = Glibc.read(wakeFD, &value, 8)
                        _ = linkd_epoll_arm(epollFD, wakeFD, 0, 0)
                    } else if let waiter = state.waiters.removeValue(forKey: fd) {
                        resumed.append(waiter.continuation)
                    }
                }
                let now = ContinuousClock.now
                for (fd, waiter) in state.waiters where waiter.deadline.map({ $0 <= now }) ?? false {
                    state.waiters.removeValue(forKey: fd)
                    expired.append(waiter.continuation)
                }
            }
            for continuation in resumed { continuation.resume() }
            for continuation in expired { continuation.resume(throwing: ReactorError.timedOut) }
        }
    }
}

/// A wait on the ``Reactor`` that ended without readiness.
package enum ReactorError: Error, Sendable, Equatable {
    /// The deadline passed first.
    case timedOut
}
