import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// The apps' interface, `io.linkd.Linkd1` on a real `dbus-daemon` session bus: the example app subscribes through
/// `LinkdClient` as an app would, and gets its links, once each, the waiting ones first.
@Suite(.ownThread) struct AppInterfaceTests {
    static let app = "com.example.Notes"

    /// A world with a session bus, a `forward` app and a second app, and a daemon serving the interface.
    struct World {
        let world: DaemonHarness
        let bus: PrivateSessionBus
        let daemon: SpawnedProcess

        init(idleExit: Int = 30) throws {
            world = try DaemonHarness()
            bus = try PrivateSessionBus(activatable: false)
            for (file, config) in [
                (
                    "notes.json",
                    #"{"app": "com.example.Notes", "links": [{"match": "notes://note/{id}", "action": "forward"}]}"#
                ),
                (
                    "other.json",
                    #"{"app": "com.example.Other", "links": [{"match": "other://x", "action": "forward"}]}"#
                ),
            ] {
                try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/" + file))
            }
            daemon = try world.startDaemon(
                ["--idle-exit", String(idleExit)],
                extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                stderrPath: try world.logFile()
            )
            #expect(world.waitForEvent(.busNameTaken, within: .seconds(10)), "\(world.daemonLog())")
        }

        /// Starts the example app as `app`, its output to a file of its own; `runtime` stands for the world's runtime
        /// folder, where it reads its key.
        func startApp(_ app: String = AppInterfaceTests.app, runtime: String? = nil) throws -> (SpawnedProcess, URL) {
            let output = world.root.appendingPathComponent("app-\(UUID().uuidString.prefix(6)).out")
            let process = try world.start(
                [app],
                executable: LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent(
                    "linkd-example-app"
                ).path,
                extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime ?? world.runtime.path],
                stdoutPath: output.path,
                stderrPath: output.path + ".err"
            )
            return (process, output)
        }

        /// Starts the example app as `app` in a Flatpak-style sandbox of `sandboxAppID`, with `runtime` as its
        /// runtime folder.
        func startSandboxedApp(_ app: String, sandboxAppID: String, runtime: String) throws -> (SpawnedProcess, URL) {
            let output = world.root.appendingPathComponent("sandboxed-\(UUID().uuidString.prefix(6)).out")
            let example = LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent(
                "linkd-example-app"
            )
            let process = try world.start(
                try FlatpakStandIn.arguments(appID: sandboxAppID, in: world.root, running: [example.path, app]),
                executable: FlatpakStandIn.bwrap,
                extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime],
                stdoutPath: output.path,
                stderrPath: output.path + ".err"
            )
            return (process, output)
        }

        /// The lines the app printed, once it printed `count` (or after `timeout`).
        func lines(of output: URL, count: Int, timeout: Duration = .seconds(10)) -> [String] {
            let read = {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
            _ = world.waitUntil(timeout, folders: [world.root.path]) { read().count >= count }
            return read()
        }

        func open(_ link: String) throws -> LinkdProcess.Output { try world.run(["open", link]) }

        /// Whether the daemon logged the app's subscription, proved by `proof` (`key` or `flatpak`).
        /// Whether the daemon logs (within 10 s: its line may follow the app's first link) that the app subscribed
        /// with `proof`.
        func loggedSubscription(proof: String) -> Bool {
            world.waitForEvent(
                .subscribed,
                fields: ["LINKD_APP": AppInterfaceTests.app, "LINKD_PROOF": proof],
                within: .seconds(10)
            )
        }
    }

    @Test func theExampleAppGetsItsWaitingLinksFirstThenEachAsItComesOnce() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let queued = try world.open("notes://note/1?from=mail")
        #expect(queued.stdout == "queued: notes://note/{id} → com.example.Notes\n", "\(queued)")
        let (app, output) = try world.startApp()
        defer { app.terminate() }
        #expect(
            world.lines(of: output, count: 2) == [
                "subscribed as com.example.Notes", "link notes://note/{id} from=mail id=1",
            ]
        )
        let delivered = try world.open("notes://note/2")
        #expect(delivered.stdout == "delivered: notes://note/{id} → com.example.Notes\n", "\(delivered)")
        #expect(world.lines(of: output, count: 3).last == "link notes://note/{id} id=2")
        #expect(world.world.waitForEvent(.taken, count: 2, within: .seconds(5)))
        #expect(world.world.spooledURLs().isEmpty)
        #expect(world.lines(of: output, count: 4, timeout: .milliseconds(300)).count == 3)  // each once
        #expect(world.loggedSubscription(proof: "key"))
    }

    @Test func aCallerWithoutTheAppsKeyIsRefusedAndTheLinkWaits() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        #expect(try world.open("notes://note/1").status == 0)
        // A runtime folder of its own: no key, a wrong key, another app's key under this app's name.
        let forged = world.world.root.appendingPathComponent("forged")
        try FileManager.default.createDirectory(
            at: forged.appendingPathComponent("linkd/keys"),
            withIntermediateDirectories: true
        )
        let otherKey = try String(
            contentsOfFile: world.world.runtime.path + "/linkd/keys/com.example.Other",
            encoding: .utf8
        )
        let keyFile = forged.appendingPathComponent("linkd/keys/" + AppInterfaceTests.app)
        for (key, refusal) in [
            (
                nil,
                "send com.example.Notes's key, the contents of \(world.world.runtime.path)/linkd/keys/com.example.Notes"
            ),
            (
                "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n",
                "that is not com.example.Notes's key"
            ),
            (otherKey, "that is not com.example.Notes's key"),
        ] {
            try? FileManager.default.removeItem(at: keyFile)
            if let key { try Data(key.utf8).write(to: keyFile) }
            let (app, output) = try world.startApp(runtime: forged.path)
            app.waitUntilExit()
            #expect(app.terminationStatus == 69)
            #expect(world.lines(of: output, count: 1) == ["linkd refused: io.linkd.Linkd1.Error.NotProven: \(refusal)"])
        }
        // An app no apps.d file names.
        let (stranger, output) = try world.startApp("com.example.Unknown")
        stranger.waitUntilExit()
        #expect(
            world.lines(of: output, count: 1)
                == ["linkd refused: io.linkd.Linkd1.Error.UnknownApp: no apps.d file names com.example.Unknown"]
        )
        #expect(world.world.spooledURLs() == ["notes://note/1"])  // still waiting for its app
        let (app, proven) = try world.startApp()
        defer { app.terminate() }
        #expect(world.lines(of: proven, count: 2).last == "link notes://note/{id} id=1")
    }

    @Test(.disabled(if: !FlatpakStandIn.isAvailable, "needs bubblewrap"))
    func aFlatpakAppIsItsSandboxsAppWithoutAKeyAndNoOther() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        #expect(try world.open("notes://note/5").status == 0)
        // Another sandbox's app, even with the app's real key in reach: refused.
        let (impostor, impostorOutput) = try world.startSandboxedApp(
            AppInterfaceTests.app,
            sandboxAppID: "com.example.Other",
            runtime: world.world.runtime.path
        )
        impostor.waitUntilExit()
        #expect(
            world.lines(of: impostorOutput, count: 1) == [
                "linkd refused: io.linkd.Linkd1.Error.NotProven: a Flatpak sandbox of com.example.Other cannot act "
                    + "for com.example.Notes"
            ],
            "\((try? String(contentsOfFile: impostorOutput.path + ".err", encoding: .utf8)) ?? "")"
        )
        // The app's own sandbox, with no key at all: its sandbox proves it.
        let empty = world.world.root.appendingPathComponent("sandbox-runtime")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let (app, output) = try world.startSandboxedApp(
            AppInterfaceTests.app,
            sandboxAppID: AppInterfaceTests.app,
            runtime: empty.path
        )
        defer { app.terminate() }
        #expect(
            world.lines(of: output, count: 2) == ["subscribed as com.example.Notes", "link notes://note/{id} id=5"],
            "\((try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")"
        )
        #expect(world.loggedSubscription(proof: "flatpak"))
    }

    @Test func statusListsTheSubscribedAppsAndHowEachProvedItself() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let bus = ["DBUS_SESSION_BUS_ADDRESS": world.bus.address]
        #expect(try world.world.run(["status"], extra: bus).stdout.hasSuffix("\nsubscribed apps: none\n"))
        let (app, output) = try world.startApp()
        defer { app.terminate() }
        #expect(world.lines(of: output, count: 1) == ["subscribed as com.example.Notes"])
        let status = try world.world.run(["status"], extra: bus)
        #expect(status.stdout.hasSuffix("\nsubscribed apps: com.example.Notes (key)\n"), "\(status)")
        let json = try world.world.run(["status", "--json"], extra: bus)
        #expect(
            json.stdout.hasSuffix(#", "subscribed": [{"app": "com.example.Notes", "proof": "key"}]}"# + "\n"),
            "\(json)"
        )
    }

    @Test func aSubscriberThatGoesAwayLeavesTheNextLinkToTheNextSubscriber() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let (first, firstOutput) = try world.startApp()
        #expect(world.lines(of: firstOutput, count: 1) == ["subscribed as com.example.Notes"])
        kill(first.pid, SIGKILL)
        first.waitUntilExit()
        let opened = try world.open("notes://note/3")
        // Gone from the bus: its subscription ended with it, and the link waits.
        #expect(
            opened.stdout == "queued: notes://note/{id} → com.example.Notes\n",
            "\(opened)\n\(world.world.daemonLog())"
        )
        let (second, secondOutput) = try world.startApp()
        defer { second.terminate() }
        #expect(world.lines(of: secondOutput, count: 2).last == "link notes://note/{id} id=3")
    }

    /// A subscriber with receipts that leaves before it said `Received` (it crashed) leaves the link to the app's next
    /// subscriber; one that said it (the example app, through `LinkdClient`) is not sent it again.
    @Test func aLinkNotReceivedGoesToTheNextSubscriberAndAReceivedOneDoesNot() async throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let key = try String(contentsOfFile: world.world.runtime.path + "/linkd/keys/" + Self.app, encoding: .utf8)
        let crashing = try BusEndpoint(address: world.bus.address)
        let heard = Lock<[String]>([])
        try await crashing.watch("type='signal',interface='io.linkd.Linkd1',member='Link'") { signal in
            heard.withLock { $0.append(signal.arguments.first?.string ?? "") }
        }
        let subscribed = await crashing.call(
            destination: "io.linkd.Linkd1",
            path: "/io/linkd/Linkd1",
            interface: "io.linkd.Linkd1",
            member: "SubscribeWithReceipts",
            arguments: [.string(Self.app), .string(key.trimmingCharacters(in: .newlines))]
        )
        #expect(throws: Never.self) { try subscribed.get() }
        #expect(try world.open("notes://note/5").status == 0)
        #expect(world.world.waitUntil(.seconds(10)) { heard.withLock { $0.count } == 1 })
        let unknown = await crashing.call(
            destination: "io.linkd.Linkd1",
            path: "/io/linkd/Linkd1",
            interface: "io.linkd.Linkd1",
            member: "Received",
            arguments: [.string("not-a-link-of-mine")]
        )
        guard case .failure(let refusal) = unknown else {
            Issue.record("a receipt of a link never sent was taken")
            return
        }
        #expect(refusal.name == "io.linkd.Linkd1.Error.NoSuchLink")
        crashing.close()
        let (second, secondOutput) = try world.startApp()
        #expect(
            world.lines(of: secondOutput, count: 2) == [
                "subscribed as com.example.Notes", "link notes://note/{id} id=5",
            ]
        )
        #expect(world.world.waitForEvent(.taken, within: .seconds(10)), "\(world.world.daemonLog())")
        second.terminate()
        second.waitUntilExit()
        let (third, thirdOutput) = try world.startApp()
        defer { third.terminate() }
        #expect(world.lines(of: thirdOutput, count: 1) == ["subscribed as com.example.Notes"])
        // Subscribed: a link still queued for it would be on its way now.
        #expect(world.lines(of: thirdOutput, count: 2, timeout: .seconds(1)).count == 1, "the received link comes once")
    }

    /// Any peer can address a signal to any connection: a forged `Link` sent to every connection reaches no app, and a
    /// forged `NameOwnerChanged` sent to linkd ends no subscription.
    @Test func forgedSignalsAreIgnoredOnBothSides() async throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let (app, output) = try world.startApp()
        defer { app.terminate() }
        #expect(world.lines(of: output, count: 1) == ["subscribed as com.example.Notes"])
        let forger = try BusEndpoint(address: world.bus.address)
        defer { forger.close() }
        let listed = await forger.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "ListNames",
            arguments: []
        )
        let everyone = try #require(try listed.get().first?.strings).filter { $0.hasPrefix(":") }
        for name in everyone {
            let link: [BusValue] = [
                .string("forged"), .string("notes://note/{id}"), .dictionary(["id": "666"]),
                .string("notes://note/666"),
            ]
            _ = await forger.emit(
                path: "/io/linkd/Linkd1",
                interface: "io.linkd.Linkd1",
                member: "Link",
                to: name,
                arguments: link
            )
            for gone in everyone {
                _ = await forger.emit(
                    path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged",
                    to: name,
                    arguments: [.string(gone), .string(gone), .string("")]
                )
            }
        }
        let opened = try world.open("notes://note/7")
        #expect(opened.stdout == "delivered: notes://note/{id} → com.example.Notes\n", "\(opened)")
        #expect(
            world.lines(of: output, count: 2) == ["subscribed as com.example.Notes", "link notes://note/{id} id=7"]
        )
    }

    @Test func aLinkGoesToItsAppAloneAndNoOtherConnectionHearsIt() async throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let spy = try BusEndpoint(address: world.bus.address)
        defer { spy.close() }
        let heard = Lock<[String]>([])
        try await spy.watch("type='signal',interface='io.linkd.Linkd1'") { signal in
            heard.withLock { $0.append(signal.member) }
        }
        let (other, otherOutput) = try world.startApp("com.example.Other")
        defer { other.terminate() }
        let (app, output) = try world.startApp()
        defer { app.terminate() }
        #expect(world.lines(of: otherOutput, count: 1) == ["subscribed as com.example.Other"])
        #expect(world.lines(of: output, count: 1) == ["subscribed as com.example.Notes"])
        #expect(try world.open("notes://note/4?secret=canary-4711").status == 0)
        #expect(world.lines(of: output, count: 2).last == "link notes://note/{id} id=4 secret=canary-4711")
        #expect(world.lines(of: otherOutput, count: 2, timeout: .milliseconds(300)).count == 1)
        #expect(heard.withLock { $0 }.isEmpty)
    }

    /// With the shipped service file (its `Exec`, as a bus without systemd runs it), an app's call starts the daemon,
    /// which keeps running while the app is subscribed and gives the name up at its idle exit once it is not.
    @Test func theBusStartsTheDaemonForAnAppWhichKeepsItUpUntilItLeaves() throws {
        let world = try DaemonHarness()
        let config = #"{"app": "com.example.Notes", "links": [{"match": "notes://note/{id}", "action": "forward"}]}"#
        try Data(config.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/notes.json"))
        let shipped = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(
                "share/dbus-1/services/io.linkd.Linkd1.service"
            ),
            encoding: .utf8
        )
        // The bus starts it with the bus's own environment: the world's folders are given on its command line, and
        // its log goes to the world's log file.
        let exec =
            "Exec=/bin/sh -c 'exec /usr/bin/env XDG_RUNTIME_DIR=\(world.runtime.path) "
            + "XDG_CONFIG_HOME=\(world.config.path) XDG_STATE_HOME=\(world.state.path) "
            + "XDG_CACHE_HOME=\(world.cache.path) \(LinkdProcess.executable.path) daemon --idle-exit 1 "
            + "2>>\(try world.logFile())'"
        let service = shipped.replacingOccurrences(of: "Exec=/usr/bin/linkd daemon", with: exec)
        let bus = try PrivateSessionBus(activatable: false, services: ["io.linkd.Linkd1": service])
        let output = world.root.appendingPathComponent("app.out")
        let app = try world.start(
            [AppInterfaceTests.app],
            executable: LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent("linkd-example-app")
                .path,
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
            stdoutPath: output.path,
            stderrPath: output.path + ".err"
        )
        let lines = {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        #expect(world.waitUntil(.seconds(20), folders: [world.root.path]) { !lines().isEmpty })
        #expect(lines() == ["subscribed as com.example.Notes"], "\(world.daemonLog())")
        #expect(world.waitForEvent(.subscribed, within: .seconds(5)))
        #expect(!world.waitForEvent(.stopping, within: .seconds(3)))  // a subscribed app keeps it up
        app.terminate()
        app.waitUntilExit()
        #expect(world.waitForEvent(.stopping, within: .seconds(20)))
        #expect(world.waitUntil(.seconds(20)) { linkdDaemonPIDs(runtime: world.runtime.path).isEmpty })
        let owner = try LinkdProcess.run(
            ["--address=" + bus.address, "status", "io.linkd.Linkd1"],
            executable: URL(fileURLWithPath: "/usr/bin/busctl")
        )
        #expect(owner.status != 0, "\(owner)")
    }

    @Test func busctlAndGdbusShowTheInterfaceAsInstalled() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let busctl = try LinkdProcess.run(
            ["--address=" + world.bus.address, "introspect", "io.linkd.Linkd1", "/io/linkd/Linkd1", "io.linkd.Linkd1"],
            executable: URL(fileURLWithPath: "/usr/bin/busctl")
        )
        let members = busctl.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ").prefix(3).joined(separator: " ")
        }
        #expect(
            members == [
                ".Answer method ss", ".AnswerQuestions method sas", ".Decline method s", ".Received method s",
                ".RequestReset method ss", ".SignIn method ss", ".SignInWithEmail method ss", ".Subscribe method ss",
                ".SubscribeWithReceipts method ss", ".Subscribers method -", ".Unsubscribe method -",
                ".Link signal ssa{ss}sa{ss}", ".Question signal ssss", ".ResetDone signal s",
                ".ResetFailed signal ss", ".Session signal sssa{ss}a{ss}",
            ],
            "\(busctl)"
        )
        let gdbus = try LinkdProcess.run(
            [
                "introspect", "--address", world.bus.address, "--dest", "io.linkd.Linkd1", "--object-path",
                "/io/linkd/Linkd1", "--xml",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/gdbus")
        )
        #expect(gdbus.status == 0 && gdbus.stdout.contains(#"<method name="Subscribe">"#), "\(gdbus)")
        let installed = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(
                "share/dbus-1/interfaces/io.linkd.Linkd1.xml"
            ),
            encoding: .utf8
        )
        for line in gdbus.stdout.split(separator: "\n") where line.contains("name=") {
            #expect(installed.contains(line.trimmingCharacters(in: .whitespaces)), "\(line)")
        }
    }
}

/// A sign-in delivered with `"forward"` reaches the subscribed app on the session bus as its session, never the link.
@Suite(.ownThread) struct AppInterfaceSessionTests {
    @Test func theSignedInSessionGoesToTheProvenAppAlone() async throws {
        let signIn = try SignInForwardTests.World()
        let world = signIn.world
        let bus = try PrivateSessionBus(activatable: false)
        let daemon = try world.startDaemon(onBus: bus)
        defer { daemon.terminate() }
        let spy = try BusEndpoint(address: bus.address)
        defer { spy.close() }
        let heard = Lock<[String]>([])
        try await spy.watch("type='signal',interface='io.linkd.Linkd1'") { signal in
            heard.withLock { $0.append(signal.member) }
        }
        let output = world.root.appendingPathComponent("app.out")
        let app = try world.start(
            [SignInForwardTests.app],
            executable: LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent("linkd-example-app")
                .path,
            extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
            stdoutPath: output.path
        )
        defer { app.terminate() }
        let lines = {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        #expect(world.waitUntil(.seconds(10), folders: [world.root.path]) { lines().count == 1 })
        #expect(lines() == ["subscribed as com.example.SignIn"])
        let link = try signIn.requestedLink()
        let opened = try world.run(["open", link])
        #expect(opened.status == 0, "\(opened)\n\(world.daemonLog())")
        #expect(world.waitUntil(.seconds(10), folders: [world.root.path]) { lines().count == 2 })
        #expect(lines().last == "signed in as ada@example.com (supabase)")
        #expect(heard.withLock { $0 }.isEmpty)
        #expect(world.waitForEvent(.taken, within: .seconds(5)))
        #expect(world.spooledURLs().isEmpty)
        let tokens = signIn.gotrue.issuedAccessTokens()
        #expect(!tokens.isEmpty)
        for token in tokens { #expect(!world.daemonLog().contains(token) && !lines().joined().contains(token)) }
    }
}
