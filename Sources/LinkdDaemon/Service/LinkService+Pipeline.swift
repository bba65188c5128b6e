import LinkdConfig
import LinkdRouting
import LinkdWire

/// The pipeline every link goes through, written once for every action: a repeat of the link joined to its first
/// run, the action's checks (its plan), a program slot, the spool record and the log line of its acceptance, then the
/// action's run, and with its outcome the entry removed or kept, the slot given back and whoever joined answered. Each
/// is released here, or — for a program that read its link and runs on — by the pipeline's own closure
/// (``LinkRun/programExited``), which the program's watch calls when it exits.
extension LinkService {
    /// Runs `link` through `action` for `client`.
    nonisolated func run<A: Action>(
        _ action: A,
        _ link: ClaimedLink,
        client: (any LinkClient)?
    ) async -> WireProtocol.Response {
        if A.joinsRepeats, let joined = await context.flights.joinOrStart(link.flightKey) { return joined }
        let plan: A.Plan
        switch await action.plan(link, client: client, context: context) {
        case .success(let made): plan = made
        case .failure(let failure): return refuse(failure, link, joined: A.joinsRepeats)
        }
        let response = await admitAndRun(action, plan, link, client: client)
        await action.answered(plan, link: link, with: response)
        return response
    }

    private nonisolated func admitAndRun<A: Action>(
        _ action: A,
        _ plan: A.Plan,
        _ link: ClaimedLink,
        client: (any LinkClient)?
    ) async -> WireProtocol.Response {
        let admission = action.admission(plan, link: link)
        if admission.takesProgramSlot, await !slots.take() {
            // Cancelled while it waited: the daemon's stop ran out of time, and nothing was done with the link.
            if Task.isCancelled { return refuse(.daemonStopping, link, joined: A.joinsRepeats) }
            log.warning(
                "a link for \(link.appName) was refused: \(slots.limit) programs are running",
                [("LINKD_APP", link.appName), ("LINKD_ROUTE", link.route.id)]
            )
            return refuse(.tooManyPrograms(limit: slots.limit), link, joined: A.joinsRepeats)
        }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try context.record(link.url, kind: admission.kind)
        } catch {
            if admission.takesProgramSlot { slots.give() }
            return refuse(error, link, joined: A.joinsRepeats)
        }
        log.info(
            "link \(entry.shortID) accepted for \(link.appName): \(link.route.id)",
            link.logFields(entry),
            event: .accepted
        )
        let run = linkRun(link, entry, client: client, admission, joined: A.joinsRepeats)
        return await end(run, admission, joined: A.joinsRepeats, with: action.run(plan, run))
    }

    /// Runs `entry` again through `action`, when the action asks for it: a slot first (none free leaves the entry for
    /// the next daemon, its replay unused), then one more attempt written to the spool, then the run.
    nonisolated func replay<A: Action>(_ action: A, _ entry: Spool.Entry, link: ClaimedLink?) async {
        guard case .again(let plan, let link) = await action.replay(entry, link: link, context: context) else { return }
        let admission = action.admission(plan, link: link)
        if admission.takesProgramSlot, await !slots.take() {
            log.warning(
                "link \(entry.shortID) stays in the spool for the next daemon: \(slots.limit) programs are running",
                link.logFields(entry)
            )
            return
        }
        // Dropped after two replays, or a repeat of the same link, which is in flight already.
        guard let again = context.markReplayed(entry), await startsItsOwnFlight(A.joinsRepeats, link) else {
            if admission.takesProgramSlot { slots.give() }
            spool.remove(entry.id)
            return
        }
        log.notice("link \(entry.shortID) replayed after a crash", link.logFields(entry), event: .replayed)
        let run = linkRun(link, again, client: nil, admission, joined: A.joinsRepeats)
        _ = await end(run, admission, joined: A.joinsRepeats, with: action.run(plan, run))
    }

    /// Whether the run of `link` starts a flight of its own, or needs none: `false` when it is a repeat.
    private nonisolated func startsItsOwnFlight(_ joinsRepeats: Bool, _ link: ClaimedLink) async -> Bool {
        guard joinsRepeats else { return true }
        return await context.flights.joinOrStart(link.flightKey) == nil
    }

    private nonisolated func linkRun(
        _ link: ClaimedLink,
        _ entry: Spool.Entry,
        client: (any LinkClient)?,
        _ admission: Admission,
        joined: Bool
    ) -> LinkRun {
        let (slots, flights) = (slots, context.flights)
        return LinkRun(link: link, entry: entry, client: client, context: context) {
            if admission.takesProgramSlot { slots.give() }
            if joined { flights.end(link.flightKey) }
        }
    }

    /// Does what `outcome` says with the run's entry, slot and flight, logs its note, answers whoever joined, and
    /// then lets the action finish what it does afterwards.
    private nonisolated func end(
        _ run: LinkRun,
        _ admission: Admission,
        joined: Bool,
        with outcome: Outcome
    ) async -> WireProtocol.Response {
        var watch: (@Sendable () -> Void)?
        switch outcome.fate {
        case .done: spool.remove(run.entry.id)
        case .running(let start):
            spool.remove(run.entry.id)  // delivered: the program has it, and it is never replayed
            watch = start
        case .handedOn, .interrupted: break
        }
        let note = outcome.note ?? .info("link \(run.entry.shortID) answered")
        let fields = run.link.logFields(run.entry) + Self.answerFields(outcome.response)
        switch note.level {
        case .info: log.info(note.message, fields, event: .answered)
        case .notice: log.notice(note.message, fields, event: .answered)
        case .warning: log.warning(note.message, fields, event: .answered)
        }
        if admission.takesProgramSlot, watch == nil { slots.give() }
        if joined {
            context.flights.finish(run.link.flightKey, with: outcome.response, keepingItOpen: watch != nil)
        }
        watch?()
        await outcome.afterwards?()
        return outcome.response
    }

    /// The answer's own field: `LINKD_STATE` when the link was taken, `LINKD_REASON` when it failed.
    private static func answerFields(_ response: WireProtocol.Response) -> [(String, String)] {
        switch response {
        case .accepted(_, _, let state, _): [("LINKD_STATE", state.rawValue)]
        case .failed(let failure): [("LINKD_REASON", failure.reason.rawValue)]
        case .subscribed, .waiting: []
        }
    }

    /// The answer when the link is refused before it is recorded; whoever joined its flight is told the same.
    private nonisolated func refuse(
        _ failure: WireProtocol.Failure,
        _ link: ClaimedLink,
        joined: Bool
    ) -> WireProtocol.Response {
        log.info(
            "refused a link at \(link.appName): \(failure.reason)",
            [("LINKD_APP", link.appName), ("LINKD_ROUTE", link.route.id), ("LINKD_REASON", failure.reason.rawValue)],
            event: .refused
        )
        if joined { context.flights.finish(link.flightKey, with: .failed(failure)) }
        return .failed(failure)
    }
}

extension ActionContext {
    /// Records an accepted link in the spool before any action runs, so that a crash cannot lose it.
    ///
    /// - Throws: a ``WireProtocol/Failure`` (temporary: `spool_full`, `disk_full` or `spool_unwritable`) after
    ///   logging why, when the spool cannot take the link: the link is refused before it is acknowledged.
    fileprivate func record(_ url: String, kind: Spool.Entry.Kind) throws(WireProtocol.Failure) -> Spool.Entry {
        do throws(Spool.Failure) {
            return try spool.add(url: url, kind: kind)
        } catch {
            log.error("refused a link: \(error)", [("LINKD_REASON", error.reason.rawValue)])
            throw WireProtocol.Failure(kind: .temporary, reason: error.reason, message: error.description)
        }
    }

    /// `entry` with one more attempt written to the spool, for its replay; `nil` (the entry removed) when it was
    /// replayed once already: a link whose action crashed the daemon twice is not tried a third time.
    fileprivate func markReplayed(_ entry: Spool.Entry) -> Spool.Entry? {
        guard entry.attempts < 2 else {
            log.warning("link \(entry.shortID) was already replayed once and is dropped")
            spool.remove(entry.id)
            return nil
        }
        var again = entry
        again.attempts += 1
        try? spool.write(again)
        return again
    }
}
