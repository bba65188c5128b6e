import FoundationEssentials
import LinkdConfig
import LinkdFormats
package import LinkdSystem
import LinkdWire

/// The `exec` action: the app's program gets the route as one JSON object on standard input, with the real values,
/// and nothing secret in its argv or environment. Until it has read all of it, it has the time limit (SIGTERM, then
/// SIGKILL 5 s later); once it has, the link is delivered and leaves the spool, and the program may run as long as it
/// likes — it outlives the daemon, and its link is never replayed. What it writes goes to the log, redacted
/// (``ProgramSupervisor``).
struct ExecAction: Action {
    typealias Settings = ExecSettings

    /// Each program is its own: a replay starts several at once.
    static let replaysSideBySide = true

    /// Starts the programs, within their slots and time limit.
    let programs: ProgramDelivery

    /// Whether the program was found when the configuration was read and can still be run.
    func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool {
        link.claim.action.settings(as: Settings.self).map { ProgramDelivery.canRun($0.argv) } ?? false
    }

    func open(_ link: ClaimedLink, client: (any LinkClient)?, context: ActionContext) async -> WireProtocol.Response {
        guard link.claim.action.settings(as: Settings.self) != nil else { preconditionFailure("an exec link") }
        if let joined = await context.flights.joinOrStart(link.flightKey) { return joined }
        let slots = programs.supervisor.slots
        guard await slots.take() else {
            // Cancelled while it waited: the daemon's stop ran out of time, and nothing was done with the link.
            if Task.isCancelled { return await context.fail(.daemonStopping, link: link) }
            context.log.warning(
                "a link for \(link.appName) was refused: \(slots.limit) programs are running",
                [("LINKD_APP", link.appName), ("LINKD_ROUTE", link.route.id)]
            )
            return await context.fail(.tooManyPrograms(limit: slots.limit), link: link)
        }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: .exec(program: nil))
        } catch {
            slots.give()
            return await context.fail(error, link: link)
        }
        context.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        return await deliver(link: link, entry: entry, context: context)
    }

    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async {
        // The program started for it never read all of the link (it would have left the spool): it is ended first.
        if let program = entry.kind.execProgram, program.isRunning {
            program.kill()
            context.log.notice("link \(entry.shortID): the program (pid \(program.pid)) that had not read it was ended")
        }
        guard let link, link.claim.action.settings(as: Settings.self) != nil else {
            context.log.warning("link \(entry.shortID) no longer routes to a program and is dropped")
            context.spool.remove(entry.id)
            return
        }
        // A slot first, so that a link left for the next daemon (none came free) has not used up its replay.
        let slots = programs.supervisor.slots
        guard await slots.take() else {
            context.log.warning(
                "link \(entry.shortID) stays in the spool for the next daemon: \(slots.limit) programs are running",
                link.logFields(entry)
            )
            return
        }
        guard let again = context.markReplayed(entry),
            await context.flights.joinOrStart(link.flightKey) == nil
        else {
            slots.give()
            // Dropped after two replays, or a repeat of the same link, which is in flight already.
            context.spool.remove(entry.id)
            return
        }
        context.log.notice("link \(entry.shortID) replayed after a crash", link.logFields(entry))
        _ = await deliver(link: link, entry: again, context: context)
    }

    /// Starts the program, hands it the route, and answers once it has read it (or failed to).
    private func deliver(link: ClaimedLink, entry: Spool.Entry, context: ActionContext) async -> WireProtocol.Response {
        guard let arguments = link.claim.action.settings(as: Settings.self)?.argv else {
            preconditionFailure("an exec link")
        }
        let payload = LinkPayload.of(id: entry.id, app: link.appName, route: link.route, url: entry.url)
        let answer = WireProtocol.Response.accepted(route: link.route.id, app: link.appName, state: .delivered)
        return await programs.deliver(
            payload,
            to: arguments,
            answering: answer,
            link: link,
            entry: entry,
            context: context
        ) {
            pid in
            // Recorded before the program is given anything, so that a daemon that dies now leaves a trace of it.
            var started = entry
            started.kind = .exec(program: ProcessIdentity.of(pid))
            try? context.spool.write(started)
        }
    }
}

extension Spool.Entry.Kind {
    /// A link for an `exec` program that has not read it yet; `program` is the one started for it, once there is one.
    package static func exec(program: ProcessIdentity?) -> Self {
        var memory: [String: Spool.Value] = [:]
        if let program {
            memory["program"] = .object([
                "pid": .integer(Int64(program.pid)), "startTime": .integer(Int64(clamping: program.startTime)),
            ])
        }
        return Self(keyword: ExecAction.keyword, memory: memory)
    }

    /// The program started for an `exec` link, when one was.
    package var execProgram: ProcessIdentity? {
        guard let program = memory["program"]?.object,
            let pid = program["pid"]?.integer.flatMap(Int32.init(exactly:)),
            let startTime = program["startTime"]?.integer.flatMap(UInt64.init(exactly:))
        else { return nil }
        return ProcessIdentity(pid: pid, startTime: startTime)
    }
}
