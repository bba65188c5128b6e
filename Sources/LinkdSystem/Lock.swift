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

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        // The object's address names the lock to the sanitizer, announced before the value is touched.
        let name = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            linkd_sanitizer_acquire(name)
            defer { linkd_sanitizer_release(name) }
            return try body(&value)
        }
    }
}
