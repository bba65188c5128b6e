import Glibc
import LinkdSystem

/// Watches the programs of `exec` links after delivery: when one exits its link leaves the spool and its flight
/// ends; one still running at the time limit is killed. Each wait is on the program's pidfd, not a poll.
final class ProgramSupervisor: Sendable {
    private struct Watched: Sendable {
        let program: Subprocess.Running
        let entry: Spool.Entry
        let flightKey: String
        let started: ContinuousClock.Instant
    }

    /// How long a program may run (`LINKD_EXEC_TIME_LIMIT`).
    let timeLimit: Duration
    private let activity: Activity
    private let stream: AsyncStream<Watched>
    private let continuation: AsyncStream<Watched>.Continuation

    init(timeLimit: Duration, activity: Activity) {
        self.timeLimit = timeLimit
        self.activity = activity
        (stream, continuation) = AsyncStream.makeStream(of: Watched.self)
    }

    /// Watches `program`, delivered for `entry`; the daemon stays up (``Activity``) while it runs.
    func watch(_ program: Subprocess.Running, entry: Spool.Entry, flightKey: String) {
        activity.hold()
        continuation.yield(Watched(program: program, entry: entry, flightKey: flightKey, started: .now))
    }

    /// Runs the watches until the task is cancelled; a program still running then is left to die with the daemon
    /// (`PR_SET_PDEATHSIG`), its link still in the spool.
    func run(service: LinkService) async {
        await withDiscardingTaskGroup { group in
            for await watched in stream {
                group.addTask { await self.supervise(watched, service: service) }
            }
        }
    }

    private func supervise(_ watched: Watched, service: LinkService) async {
        defer { activity.release() }
        let program = watched.program
        let status: Int32
        do {
            do {
                status = try await program.exitStatus(deadline: watched.started + timeLimit)
            } catch ReactorError.timedOut {
                program.send(SIGKILL)
                service.log.warning("link \(watched.entry.shortID): the program ran past \(timeLimit) and was killed")
                status = try await program.exitStatus()
            }
        } catch {
            return  // the daemon is stopping
        }
        program.closeDescriptors()
        service.spool.remove(watched.entry.id)
        await service.endFlight(watched.flightKey)
        let message = "link \(watched.entry.shortID): the program (pid \(program.pid)) exited with status \(status)"
        if status == 0 { service.log.info(message) } else { service.log.warning(message) }
    }
}
