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
        ProgramDelivery.canRun(settings(of: link).argv)
    }

    /// The program's arguments.
    func plan(
        _ link: ClaimedLink,
        client: (any LinkClient)?,
        context: ActionContext
    ) async -> Result<[String], WireProtocol.Failure> {
        .success(settings(of: link).argv)
    }

    /// A repeat of the link joins the run until the program exits.
    static let joinsRepeats = true

    /// A program slot.
    func admission(_ arguments: [String], link: ClaimedLink) -> Admission {
        Admission(kind: .exec(program: nil), takesProgramSlot: true)
    }

    /// The program started for a link a daemon that stopped left is ended first, since it never read all of the link
    /// (it would have left the spool); the link is then delivered again, when it still routes to a program.
    func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<[String]> {
        if let program = entry.kind.execProgram, program.isRunning {
            program.kill()
            context.log.notice("link \(entry.shortID): the program (pid \(program.pid)) that had not read it was ended")
        }
        guard let link, let arguments = link.claim.action.settings(as: Settings.self)?.argv else {
            context.log.warning("link \(entry.shortID) no longer routes to a program and is dropped")
            context.spool.remove(entry.id)
            return .handled
        }
        return .again(arguments, link)
    }

    /// Starts the program, hands it the route, and answers once it has read it (or failed to).
    func run(_ arguments: [String], _ run: LinkRun) async -> Outcome {
        let (link, entry, context) = (run.link, run.entry, run.context)
        let payload = LinkPayload.of(id: entry.id, app: link.appName, route: link.route, url: entry.url)
        let answer = WireProtocol.Response.accepted(route: link.route.id, app: link.appName, state: .delivered)
        return await programs.deliver(payload, to: arguments, answering: answer, run: run) { pid in
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
