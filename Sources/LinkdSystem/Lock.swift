import CSystemd
import Synchronization

/// A `Mutex` that ThreadSanitizer understands.
///
/// `Mutex` waits in the kernel (a futex) inside the Synchronization library, which is not built with the sanitizer:
/// under contention ThreadSanitizer does not see one thread's unlock happen before the next one's lock and reports
/// the state the lock protects as a race. `Lock` tells it, through its annotations, each time the lock is taken and
/// given up; without the sanitizer those are two tests of a null pointer.
package final class Lock<Value>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, holding the lock. Never inlined: inlined into the reactor's async functions, it
    /// made the optimizer of Swift 6.3.1 crash splitting their coroutines (a release build, signal 11).
    @inline(never)
    package func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        // The object's address names the lock to the sanitizer, announced before the value is touched.
        let name = Unmanaged.passUnretained(self).toOpaque()
        return mutex.withLock { (value: inout sending Value) -> sending Result in
            linkd_sanitizer_acquire(name)
            defer { linkd_sanitizer_release(name) }
            return body(&value)
        }
    }
}
