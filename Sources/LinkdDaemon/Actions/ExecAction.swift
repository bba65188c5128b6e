import FoundationEssentials
import Glibc
import LinkdConfig
import LinkdFormats
import LinkdSystem

/// The `exec` action: the app's program gets the route as one JSON object on standard input, with the real values,
/// and nothing secret in its argv or environment. The link is delivered once the program has read all of it; the
/// ``ProgramSupervisor`` then watches the program until it exits.
struct ExecAction: Action {
    /// How long a program may take to read its standard input before the delivery counts as failed.
    static let readDeadline: Duration = .seconds(10)

    let supervisor: ProgramSupervisor

    func open(_ link: ClaimedLink, client: (any LinkClient)?, service: LinkService) async -> WireProtocol.Response {
        guard case .exec(let arguments) = link.claim.action else { preconditionFailure("an exec link") }
        if let joined = await service.joinOrStartFlight(link.flightKey) { return joined }
        let entry: Spool.Entry
        do throws(WireProtocol.Failure) {
            entry = try service.record(link.url, kind: .exec)
        } catch {
            await service.finishFlight(link.flightKey, with: .failed(error))
            return .failed(error)
        }
        service.log.info("link \(entry.shortID) accepted for \(link.appName): \(link.route.id)", link.logFields(entry))
        return await deliver(arguments, link: link, entry: entry, service: service)
    }

    func replay(_ entry: Spool.Entry, link: ClaimedLink?, service: LinkService) async {
        guard let link, case .exec(let arguments) = link.claim.action else {
            service.log.warning("link \(entry.shortID) no longer routes to a program and is dropped")
            service.spool.remove(entry.id)
            return
        }
        guard let again = service.markReplayed(entry) else { return }
        guard await service.joinOrStartFlight(link.flightKey) == nil else {
            service.spool.remove(entry.id)  // the same link is in flight already: this entry is a repeat of it
            return
        }
        service.log.notice("link \(entry.shortID) replayed after a crash", link.logFields(entry))
        _ = await deliver(arguments, link: link, entry: again, service: service)
    }

    /// Starts the program, hands it the payload, and answers once it has read it (or failed to).
    private func deliver(
        _ arguments: [String],
        link: ClaimedLink,
        entry: Spool.Entry,
        service: LinkService
    ) async -> WireProtocol.Response {
        let payload = Self.payload(id: entry.id, app: link.appName, route: link.route, url: entry.url)
        do {
            var subprocess = Subprocess(arguments, environment: Self.environment(linkID: entry.id))
            subprocess.output = .descriptor(.standardError)
            subprocess.errorOutput = .descriptor(.standardError)
            subprocess.diesWithParent = true
            let program = try await subprocess.deliver(payload, deadline: .now + Self.readDeadline)
            service.log.info(
                "link \(entry.shortID) delivered to '\(arguments[0])' (pid \(program.pid))",
                link.logFields(entry)
            )
            let response = WireProtocol.Response.accepted(route: link.route.id, app: link.appName, state: .delivered)
            await service.finishFlight(link.flightKey, with: response, keepingItOpen: true)
            supervisor.watch(program, entry: entry, flightKey: link.flightKey)
            return response
        } catch {
            service.spool.remove(entry.id)
            service.log.warning(
                "link \(entry.shortID) not delivered to '\(arguments[0])': \(error)",
                link.logFields(entry)
            )
            let failure = WireProtocol.Failure(
                kind: .unavailable,
                reason: "action_failed",
                message: "\(link.appName): \(error)"
            )
            await service.finishFlight(link.flightKey, with: .failed(failure))
            return .failed(failure)
        }
    }

    /// `{"id", "app", "route", "fields", "url"}` and a newline: what a program (or a `forward` subscriber) gets.
    static func payload(id: String, app: String, route: RoutedLink, url: String) -> [UInt8] {
        let fields = JSONValue.object(
            route.fields.map { field in
                switch field.value {
                case .number(let number): (field.name, .number(number))
                case .text(let text): (field.name, .string(text))
                case .secret(let secret): (field.name, .string(secret.revealed()))
                }
            }
        )
        let object = JSONValue.object([
            ("id", .string(id)), ("app", .string(app)), ("route", .string(route.id)), ("fields", fields),
            ("url", .string(url)),
        ])
        return Array((object.serialized + "\n").utf8)
    }

    /// The daemon's environment without what belongs to the daemon alone, plus `LINKD_LINK_ID`.
    static func environment(linkID: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC"] {
            environment.removeValue(forKey: key)
        }
        environment["LINKD_LINK_ID"] = linkID
        return environment
    }
}
