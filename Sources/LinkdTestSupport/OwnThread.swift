import Foundation
package import Testing

/// A test trait: each test of the suite (or the test) runs on a thread of its own, not on Swift's cooperative pool.
///
/// The pool has one thread a core — two on the CI machine — and the test runner starts every test at once. A test
/// that blocks (waiting for a child process, polling a file) holds a pool thread while it does; with two of them
/// blocked, every async test waits, and one whose work runs against a clock (a backend request's time limit, a
/// program's deadline) fails for time it never had. On a thread of its own a test neither starves the others nor is
/// starved: its job, every continuation it resumes and every child task it starts run there (a task executor
/// preference), while its task — and with it `#expect` — stays the test's.
package struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }  // the suite's own scope: its tests get theirs
        let executor = ThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Runs each test on a thread of its own (``OwnThread``).
    package static var ownThread: Self { Self() }
}

/// A task executor with one thread, which runs the jobs given to it in order until ``finish()``.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // The queue is guarded by `condition`'s lock; the thread waits on it for jobs.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false
    /// Whether the thread still takes jobs from the queue.
    private var isRunning = true

    init() {
        let thread = Thread { [self] in run() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues `job` for the thread; once the thread has ended, runs it on a thread of Dispatch's instead.
    ///
    /// A job can come after the test: a task the test started inherits its executor preference and may outlive it,
    /// and so may the work of an actor such a task last ran on. Dropped, that job would never run, and every later
    /// test that waits on that task or actor would hang.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if !isRunning {  // the thread ended: finished, with its queue empty
            condition.unlock()
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run the jobs it has.
    func finish() {
        condition.lock()
        isFinished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isFinished { condition.wait() }
            if jobs.isEmpty {
                isRunning = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
