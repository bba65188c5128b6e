import LinkdConfig
import LinkdFormats
import LinkdSystem
import LinkdWire

/// Watches the programs of delivered `exec` links: what a program writes goes to the log line by line, with its
/// link's secrets and anything shaped like a token redacted, and when it exits it is reaped and its link's flight
/// ends (a repeat of the link until then joins it). The reads and the exit are reactor events. A program does not
/// keep the daemon up: when the daemon stops first, the program goes on (a write after that meets a closed pipe).
///
/// It also holds the limit of programs running at once (``slots``). A program counts from before it starts until it
/// has exited, delivered or not: one that read its link and keeps running is still a process this daemon started
/// and watches, and links that start programs which never exit must meet the limit rather than fill the machine
/// with them. Programs an earlier daemon started are not its children, cannot be waited for, and do not count.
final class ProgramSupervisor: Sendable {
    private struct Watched: Sendable {
        let program: any LaunchedProgram
        let name: String
        let entryID: String
        let fields: [(String, String)]
        /// The link's secrets and what else the program was given, ready for the redactor.
        let secrets: LinkRedactor.Values
        /// The pipeline's end of the link's run: its slot given back, its flight ended.
        let exited: @Sendable () async -> Void
    }

    /// The running programs against their limit: a link whose run starts a program takes a slot before it is
    /// recorded, and holds it until its program exits.
    let slots: ProgramSlots
    /// Where the programs start: in transient units, or as the daemon's children.
    let launcher: ProgramLauncher
    private let stream: AsyncStream<Watched>
    private let continuation: AsyncStream<Watched>.Continuation

    init(limits: Daemon.Limits = Daemon.Limits(), launcher: ProgramLauncher = ProgramLauncher()) {
        slots = ProgramSlots(limit: limits.programs, wait: limits.programWait)
        self.launcher = launcher
        (stream, continuation) = AsyncStream.makeStream(of: Watched.self)
    }

    /// Watches `program` (named `name` in the log), which read `run`'s link, until it exits, and then tells the
    /// pipeline (``LinkRun/programExited``). Its output is logged with the link's secrets and `secrets` (what else
    /// it was given: a session's tokens) redacted.
    func watch(_ program: any LaunchedProgram, name: String, run: LinkRun, secrets given: [String] = []) {
        let (link, entry) = (run.link, run.entry)
        let secrets =
            link.route.fields.compactMap { field -> Secret? in
                guard case .secret(let secret) = field.value else { return nil }
                return secret
            } + given.map(Secret.init)
        continuation.yield(
            Watched(
                program: program,
                name: name,
                entryID: String(entry.shortID),
                fields: link.logFields(entry),
                secrets: LinkRedactor.Values(secrets),
                exited: run.programExited
            )
        )
    }

    /// Runs the watches until the task is cancelled.
    func run(context: ActionContext) async {
        await withDiscardingTaskGroup { group in
            for await watched in stream {
                group.addTask { await self.supervise(watched, context: context) }
            }
        }
    }

    /// The longest line of a program's output that is logged; the rest of a longer one is skipped.
    static let lineLimit = 4_096

    private func supervise(_ watched: Watched, context: ActionContext) async {
        let program = watched.program
        defer { program.closeDescriptors() }
        // The daemon stopping ends the reading, and the wait for the exit fails: the pipeline hears of the end anyway.
        guard await logOutput(of: watched, context: context), let status = try? await program.exitStatus() else {
            await watched.exited()
            return
        }
        await watched.exited()
        let message = "link \(watched.entryID): the program (\(program.identity)) exited with status \(status)"
        let fields = watched.fields + [("LINKD_STATUS", String(status))]
        if status == 0 {
            context.log.info(message, fields, event: .programExited)
        } else {
            context.log.warning(message, fields, event: .programExited)
        }
    }

    /// Logs what the program writes until it closes its output; `false` when the daemon stopped first.
    private func logOutput(of watched: Watched, context: ActionContext) async -> Bool {
        guard let output = watched.program.output, let socket = try? AsyncSocket(output) else { return true }
        var reader = LineReader(socket, limit: Self.lineLimit)
        while true {
            let line: LineReader.Line
            do {
                guard let next = try await reader.nextLine(deadline: nil) else { return true }
                line = next
            } catch {
                return false
            }
            let text = redact(String(decoding: line.bytes, as: UTF8.self), watched)
            let mark = line.isCut ? " [cut: the line was longer than \(Self.lineLimit) bytes]" : ""
            context.log.info("link \(watched.entryID): \(watched.name): \(text)\(mark)", watched.fields)
        }
    }

    /// `text` with the link's own secret values replaced: whole, percent-encoded, in base64 or base64url, and any
    /// long run of them (``LinkRedactor/fragmentLength`` bytes: a program that prints a token's first characters);
    /// the log redacts secret-named parameters on top.
    private func redact(_ text: String, _ watched: Watched) -> String {
        LinkRedactor.redact(text, values: watched.secrets)
    }
}
