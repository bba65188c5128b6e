import Dispatch
import Glibc

/// Runs blocking work (a libcurl transfer, an sd-bus call) on threads of its own: the one way linkd moves blocking
/// work off the cooperative pool. Not on the cooperative pool, and not on Dispatch's
/// global queue either: its few threads are shared with other blocking calls, and a transfer waiting there for a
/// free thread would run late past its own time limits.
///
/// A call takes an idle thread or starts one, and threads stay for the life of the process: one waiting for work
/// costs nothing, and a thread that exited would run its thread-specific destructors (OpenSSL's, libcurl's) while a
/// short-lived `linkd` may already be exiting and freeing the same state from `atexit` (AddressSanitizer caught such
/// a double free once). As many threads stay as calls ever ran at once.
package enum BlockingCall {
    private static let pool = Pool()

    /// Runs `work` on a thread of the pool and returns its value.
    package static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            pool.submit { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on a thread of the pool and returns its value, or `nil` when it has not returned within
    /// `timeout`: the wait ends then, while `work` goes on to its end on its thread (what it returns is dropped).
    package static func run<Value: Sendable>(
        timeout: Duration,
        _ work: @escaping @Sendable () -> Value
    ) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let once = ResumeOnce(continuation)
            pool.submit { once.resume(returning: work()) }
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                once.resume(returning: nil)
            }
        }
    }

    /// The number of threads the calls have started so far.
    package static var threadCount: Int { pool.threadCount }
}

/// A continuation resumed by whichever of two racing paths comes first; the other finds it resumed already.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Lock<CheckedContinuation<Value?, Never>?>

    init(_ continuation: CheckedContinuation<Value?, Never>) {
        self.continuation = Lock(continuation)
    }

    func resume(returning value: Value?) {
        continuation.withLock { pending in
            defer { pending = nil }
            return pending
        }?.resume(returning: value)
    }
}

extension BlockingCall {
    /// The threads, the work waiting for them, and one semaphore signal for each piece of work queued.
    private final class Pool: Sendable {
        private struct State {
            var queue: [@Sendable () -> Void] = []
            var idle = 0
            var threads = 0
        }

        /// A ``Lock``, not a bare `Mutex`: ThreadSanitizer sees the hand-over of queued work between these threads.
        private let state = Lock(State())
        private let queued = DispatchSemaphore(value: 0)

        var threadCount: Int { state.withLock { $0.threads } }

        /// Queues `work` for an idle thread, or for a new one; runs it here when no thread can be started.
        func submit(_ work: @escaping @Sendable () -> Void) {
            let hasIdleThread = state.withLock { state in
                guard state.idle > 0 else { return false }
                state.idle -= 1
                return true
            }
            if !hasIdleThread {
                guard startThread() else { return work() }
            }
            state.withLock { $0.queue.append(work) }
            queued.signal()
        }

        /// Starts a thread that runs ``serve()`` forever; false when `pthread_create(3)` fails.
        private func startThread() -> Bool {
            var thread = pthread_t()
            let created = pthread_create(
                &thread,
                nil,
                { argument in
                    guard let argument else { return nil }
                    Unmanaged<Pool>.fromOpaque(argument).takeUnretainedValue().serve()
                },
                Unmanaged.passUnretained(self).toOpaque()  // the pool is a static: it outlives its threads
            )
            guard created == 0 else { return false }
            pthread_detach(thread)
            state.withLock { $0.threads += 1 }
            return true
        }

        /// Takes queued work one piece at a time; marks the thread idle between pieces.
        private func serve() -> Never {
            while true {
                queued.wait()
                let work = state.withLock { $0.queue.removeFirst() }
                work()
                state.withLock { $0.idle += 1 }
            }
        }
    }
}
