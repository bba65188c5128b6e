import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// What a person sees after clicking a link in a mail client: `gio open` runs the registered `linkd open %u` with no
/// terminal, so each outcome is also one desktop notification (`org.freedesktop.Notifications.Notify` on a private
/// session bus, recorded by the test's server), in plain words, markup escaped, never a secret; and a notification
/// server that hangs, fails or is missing changes neither the exit code nor how soon `linkd open` exits.
@Suite(.ownThread, .serialized) struct ClickOutcomeTests {
    /// A session's tokens, standing in for the secrets a link carries: no notification may show them.
    static let accessToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJDYW5hcnkifQ.Canary-sig-5d1e"
    static let refreshToken = "Canary-rt-9b2c"
    static let secrets = "#access_token=\(accessToken)&refresh_token=\(refreshToken)"

    static let opening = "myapp://note/7?x=1" + secrets
    static let expired =
        "myapp://reset#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired"
    static let unclaimed = "myapp://other/7?token=Canary-q-41d0" + secrets
    static let missingProgram = "myapp://edit/7" + secrets

    static let openedLine = "com.example.Notes\tThe link was opened in com.example.Notes."
    static let expiredLine =
        "linkd\tThe link was not opened: this link has expired or was already used; request a new email (otp_expired)."
    static let expiredError =
        "Error: link 1: this link has expired or was already used; request a new email (otp_expired) [link_expired]\n"

    /// Rewrites the world's app so that `myapp://edit/{id}` runs `notes-handler`, which is in none of the folders
    /// linkd looks in, while `myapp://note/{id}` still runs the recording program.
    func writeAppsWithAMissingProgram(_ world: DaemonHarness) throws {
        let app = """
            {"app": "com.example.Notes", "links": [
              {"match": "myapp://note/{id}", "action": {"exec": ["\(world.root.path)/record.sh", "--open-link"]}},
              {"match": "myapp://edit/{id}", "action": {"exec": ["notes-handler"]}},
              {"match": "myapp://reset", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon"}}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/notes.json"))
    }

    @Test func aClickedLinkThatOpensIsNotifiedInTheAppsName() throws {
        let desktop = try ClickDesktop(try DaemonHarness())
        desktop.expectClick(Self.opening, shows: Self.openedLine)
        desktop.expectReceived([Self.opening])
    }

    @Test func anExpiredResetLinkIsNotifiedAsExpired() throws {
        let desktop = try ClickDesktop(try DaemonHarness())
        desktop.expectClick(Self.expired, shows: Self.expiredLine)
    }

    @Test func aLinkNoAppClaimsIsNotifiedAsUnclaimed() throws {
        let desktop = try ClickDesktop(try DaemonHarness())
        desktop.expectClick(
            Self.unclaimed,
            shows: "linkd\tThe link was not opened: no app claims this &#39;myapp://other&#39; link; "
                + "&#39;linkd route&#39; with the link says why."
        )
    }

    @Test func aResetWhoseBackendIsDownIsNotifiedNamingTheHost() throws {
        let port = try ClosedPort()
        defer { port.close() }
        let reset = try ResetWorld(supabaseURL: "http://127.0.0.1:\(port.port)")
        let password = "Canary-pass-7f3a9"
        let askpass = try reset.script("askpass.sh", "printf '%s\\n' '\(password)'\n")
        let desktop = try ClickDesktop(reset.world, extra: ["LINKD_ASKPASS": askpass.path])
        let link = try reset.recoveryLink()
        desktop.expectClick(
            link.url,
            shows: "linkd\tThe link was not opened: the backend &#39;127.0.0.1&#39; cannot be reached: the connection "
                + "was refused.",
            secrets: [link.accessToken, link.refreshToken, password]
        )
    }

    /// The link's own text reaches a notification where a session link is refused at a reset link: its `type` is
    /// quoted, and markup in it must show as text, not format the notification.
    @Test func markupInTheLinksTextIsEscaped() throws {
        let desktop = try ClickDesktop(try DaemonHarness())
        desktop.expectClick(
            "myapp://reset" + Self.secrets + "&type=%3Cb%3Eurgent%3C%2Fb%3E%26",
            shows: "linkd\tThe link was not opened: a &#39;supabase.session&#39; (type &lt;b&gt;urgent&lt;/b&gt;&amp;) "
                + "link is not a password reset; linkd refuses it at a reset link."
        )
    }

    /// `linkd open`, with its output to files (no terminal), timed from its start to its exit.
    private func timedOpen(
        _ world: DaemonHarness,
        _ link: String,
        bus: PrivateSessionBus
    ) throws -> (output: LinkdProcess.Output, elapsed: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let output = try world.run(["open", link], extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        return (output, clock.now - start)
    }

    @Test(arguments: [PrivateSessionBus.NotifyAnswer.never, .error])
    func aNotificationServerThatHangsOrFailsDelaysTheExitByAtMostOneSecond(
        _ answer: PrivateSessionBus.NotifyAnswer
    ) throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon()  // both runs find it listening: they differ only in the server
        defer { kill(daemon.pid, SIGKILL) }
        let bus = try PrivateSessionBus(activatable: false)
        // The fastest of two runs each: a run is a process start and a round trip to the daemon, which a loaded
        // machine can slow by a few hundred milliseconds at random.
        let alone = try (0..<2).map { _ in try timedOpen(world, Self.expired, bus: bus) }
        let server = try bus.startNotificationServer(answering: answer)
        defer {
            kill(server.pid, SIGKILL)
            server.waitUntilExit()
        }
        let served = try (0..<2).map { _ in try timedOpen(world, Self.expired, bus: bus) }
        let expected = LinkdProcess.Output(stdout: "", stderr: Self.expiredError, status: 65)
        #expect((alone + served).map(\.output) == Array(repeating: expected, count: 4))
        #expect(bus.notificationLines() == [Self.expiredLine, Self.expiredLine])  // both calls reached the server
        // linkd open waits at most 1 s for the server; the other 0.5 s leaves room for the tests running beside this
        // one on a 2-core machine, where the same run's time varies by that much.
        let delay = served.map(\.elapsed).min()! - alone.map(\.elapsed).min()!
        if TimeBounds.hold {
            #expect(delay < .milliseconds(1500), "alone: \(alone.map(\.elapsed)), served: \(served.map(\.elapsed))")
        }
    }

    static let outcomes: [(link: String, expected: LinkdProcess.Output)] = [
        (opening, .init(stdout: "delivered: myapp://note/{id} → com.example.Notes\n", stderr: "", status: 0)),
        (expired, .init(stdout: "", stderr: expiredError, status: 65)),
        (
            "myapp://other/7",
            .init(
                stdout: "",
                stderr: "Error: link 1: no app claims this 'myapp://other' link; 'linkd route' with the link says "
                    + "why [no_app]\n",
                status: 1
            )
        ),
        (
            missingProgram,
            .init(
                stdout: "",
                stderr: "Error: link 1: com.example.Notes: the program 'notes-handler' cannot be found; run 'linkd "
                    + "check' [program_not_found]\n",
                status: 69
            )
        ),
    ]

    /// No notification server on the bus, or no bus at all: standard error (which the desktop session keeps in its
    /// log) has the outcome, and the exit code is the outcome's.
    @Test(arguments: outcomes)
    func withNoNotificationServerTheOutcomeStillReachesStderrAndTheExitCode(
        _ link: String,
        _ expected: LinkdProcess.Output
    ) throws {
        let world = try DaemonHarness()
        try writeAppsWithAMissingProgram(world)
        let bus = try PrivateSessionBus(activatable: false)
        let onABus = try world.run(["open", link], extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(onABus == expected)
        let withoutABus = try world.run(["open", link])  // nothing at $XDG_RUNTIME_DIR/bus either
        #expect(withoutABus == expected)
    }
}

/// A desktop for one test's clicks: linkd registered for the world's link schemes, a private session bus whose
/// notification server records every notification, and the environment a mail client's `gio open` runs in.
final class ClickDesktop {
    let world: DaemonHarness
    let bus: PrivateSessionBus
    private let server: SpawnedProcess
    private let environment: [String: String]
    private var clicks = 0

    /// - Parameter extra: more environment for `gio open`, which the `linkd open` it runs inherits.
    init(_ world: DaemonHarness, extra: [String: String] = [:]) throws {
        self.world = world
        bus = try PrivateSessionBus(activatable: false)
        server = try bus.startNotificationServer()
        var environment = world.desktopEnvironment.merging(extra) { $1 }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        self.environment = environment
        let registered = try LinkdProcess.run(["register"], environment: environment)
        #expect(registered.status == 0, "\(registered)")
    }

    deinit {
        kill(server.pid, SIGKILL)
        server.waitUntilExit()
    }

    /// Expects the recording program to have received `links`, in order, within 10 s: `delivered` means it read its
    /// link, and it records the link after that.
    func expectReceived(_ links: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let urls = { self.world.receivedPayloads().map { $0["url"] as? String } }
        _ = world.waitUntil(.seconds(10)) { urls().count >= links.count }
        #expect(urls() == links, sourceLocation: sourceLocation)
    }

    /// Clicks `link` as a mail client does — `gio open`, its output to files, so `linkd open` has no terminal — and
    /// expects one more notification, `line` (`summary<TAB>body`), and no notification so far to hold any of
    /// `secrets` (by default the tokens every link of this suite carries) or any other `Canary` value.
    func expectClick(
        _ link: String,
        shows line: String,
        secrets: [String] = [ClickOutcomeTests.accessToken, ClickOutcomeTests.refreshToken],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        clicks += 1
        let before = bus.notificationLines().count
        let output = world.root.appendingPathComponent("gio-\(clicks)").path
        do {
            let gio = try SpawnedProcess(
                "/usr/bin/gio",
                ["open", link],
                environment: environment,
                stdoutPath: output + ".out",
                stderrPath: output + ".err"
            )
            gio.waitUntilExit()
            #expect(gio.terminationStatus == 0, sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
            return
        }
        // linkd open runs on after gio exits: its notification is the sign it is done.
        let arrived = world.waitUntil(.seconds(10), folders: [bus.root.path]) { bus.notificationLines().count > before }
        #expect(arrived, "no notification; \(world.daemonLog())", sourceLocation: sourceLocation)
        let lines = bus.notificationLines()
        #expect(Array(lines.dropFirst(before)) == [line], sourceLocation: sourceLocation)
        for secret in secrets + ["Canary"] {
            #expect(!lines.contains { $0.contains(secret) }, "'\(secret)' shown", sourceLocation: sourceLocation)
        }
    }
}
