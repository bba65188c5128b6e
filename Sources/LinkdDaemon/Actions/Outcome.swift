import LinkdWire

/// What the pipeline records and holds for an action's run (``Action/admission(_:link:)``).
struct Admission: Sendable {
    /// What the link's spool entry keeps.
    var kind: Spool.Entry.Kind
    /// Whether the run starts a program, and so waits for one of the supervisor's slots first.
    var takesProgramSlot = false
}

/// A recorded link, as its action runs it.
struct LinkRun: Sendable {
    let link: ClaimedLink
    /// The link's spool entry.
    let entry: Spool.Entry
    /// The connection, when the client said it can answer a password question.
    let client: (any LinkClient)?
    let context: ActionContext
    /// What the pipeline does once the program started for the link exits (``Outcome/Fate/running(watch:)``): gives
    /// its slot back and ends the link's flight. The action hands it to whatever watches the program.
    let programExited: @Sendable () async -> Void
}

/// How an action's run ended: the answer, what became of the link, and what the log says of it.
struct Outcome: Sendable {
    /// What became of the link, which decides what the pipeline does with its entry, slot and flight.
    enum Fate: Sendable {
        /// The action is done with the link: its entry leaves the spool, its slot is given back.
        case done
        /// A program read the link and runs on: the entry leaves the spool; the slot is held, and a repeat of the link
        /// joins this run, until the program exits (``LinkRun/programExited``). `watch` starts watching the program
        /// once the pipeline has answered.
        case running(watch: @Sendable () -> Void)
        /// The link waits for its app (the `forward` queue), which now keeps the entry.
        case handedOn
        /// The daemon stopped before the action was done: the entry stays for the next daemon.
        case interrupted
    }

    let response: WireProtocol.Response
    let fate: Fate
    /// What the log says of the end, with the link's fields.
    let note: Note?
    /// What the action does once the pipeline has answered (a notice for a client that has gone), so that nothing
    /// it waits for holds the entry, the slot or the flight.
    var afterwards: (@Sendable () async -> Void)? = nil

    /// A log line of the pipeline.
    struct Note: Sendable {
        enum Level: Sendable {
            case info, notice, warning
        }

        let level: Level
        let message: String

        static func info(_ message: String) -> Self { Self(level: .info, message: message) }
        static func notice(_ message: String) -> Self { Self(level: .notice, message: message) }
        static func warning(_ message: String) -> Self { Self(level: .warning, message: message) }
    }

    init(_ response: WireProtocol.Response, _ fate: Fate = .done, note: Note? = nil) {
        self.response = response
        self.fate = fate
        self.note = note
    }

    /// A failure the action is done with.
    static func failed(_ failure: WireProtocol.Failure, note: Note? = nil) -> Self {
        Self(.failed(failure), note: note)
    }
}

/// What becomes of a spool entry a daemon that stopped left (``Action/replay(_:link:context:)``).
enum Replay<Plan: Sendable>: Sendable {
    /// The action dealt with the entry itself: dropped it, queued it, told the person.
    case handled
    /// The pipeline runs the link again with `plan`, under the entry it has.
    case again(Plan, ClaimedLink)
}
