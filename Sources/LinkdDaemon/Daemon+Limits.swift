extension Daemon {
    /// How much the daemon takes on at once. Past a limit a new link or client is refused with a temporary failure
    /// (`linkd open` exits 75) before anything is recorded or acknowledged, so nothing already accepted is lost.
    package struct Limits: Sendable {
        /// Client connections served at once; one more gets a `too_many_clients` line and is closed.
        package var clients = 256
        /// `exec` programs running at once (``ProgramSupervisor`` says which count).
        package var programs = 64
        /// How long an `exec` link waits for a program to exit when ``programs`` run, before it is refused with
        /// `too_many_programs`: a burst of links waits its turn, programs that stay running are a refusal.
        package var programWait: Duration = .seconds(5)
        /// `forward` links waiting for one app; one more is refused with `forward_queue_full`.
        package var queuedForwardLinks = 1_000

        /// The daemon's limits.
        package init() {}
    }
}
