import Glibc

/// Runs blocking work (a libcurl transfer) on a thread of its own. Not on the cooperative pool, and not on Dispatch's
/// global queue either: its few threads are shared with other blocking calls, and a transfer waiting there for a
/// free thread would run late past its own time limits.
enum BlockingCall {
    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let job = Job { continuation.resume(returning: work()) }
            var thread = pthread_t()
            let created = pthread_create(
                &thread,
                nil,
                { argument in
                    guard let argument else { return nil }
                    Unmanaged<Job>.fromOpaque(argument).takeRetainedValue().work()
                    return nil
                },
                Unmanaged.passRetained(job).toOpaque()
            )
            if created == 0 {
                pthread_detach(thread)
            } else {
                Unmanaged.passUnretained(job).release()  // the thread never started: balance the retain, run here
                job.work()
            }
        }
    }
}
