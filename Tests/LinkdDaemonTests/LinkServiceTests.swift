import Foundation
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The lines of the file a program appends to, once it has `count` of them (read again at each change of its folder,
/// for up to 10 s).
func lines(of file: URL, count: Int) async throws -> [Substring] {
    let read = { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n") }
    let events = FileEvents([file.deletingLastPathComponent().path])
    _ = await events.wait(until: .now + .seconds(10)) { read().count >= count }
    return read()
}

/// The daemon's link handling without a socket: a service built from an apps.d folder, with the client injected.
@Suite(.ownThread) struct LinkServiceTests {
    /// A service over `apps` (one apps.d file), its spool and stop in a scratch folder (`root`, when given: a
    /// service started again over the spool an earlier one left).
    struct World {
        let root: URL
        let service: LinkService
        let supervisor: ProgramSupervisor
        let shutdown: Shutdown

        init(
            apps: String,
            forwardTTL: Double = 600,
            dbus: DBusAction = DBusAction(),
            registrations: [ActionSet.Registration] = ActionSet.registered,
            backends: BackendKinds = .linkd,
            root: URL? = nil
        ) throws {
            self.root =
                root ?? FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)")
            let root = self.root
            let folder = root.appendingPathComponent("apps.d")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(apps.utf8).write(to: folder.appendingPathComponent("app.json"))
            let loaded = ConfigLoader(
                directories: [folder],
                actions: ActionSet.kinds(registrations),
                backends: backends
            )
            .load()
            #expect(loaded.errors.isEmpty)
            let activity = Activity()
            shutdown = Shutdown()
            supervisor = ProgramSupervisor()
            service = LinkService(
                resolver: LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false),
                spool: Spool(directory: root.appendingPathComponent("spool").path),
                log: DaemonLog.make(environment: [:]),
                activity: activity,
                shutdown: shutdown,
                subscriberKeys: SubscriberKeys(directory: root.appendingPathComponent("keys").path),
                supervisor: supervisor,
                execTimeLimit: .seconds(30),
                forwardTTL: forwardTTL,
                pkceStore: PKCEStore(stateFolder: root.path),
                dbus: dbus,
                registrations: registrations
            )
        }

        var spooled: [Spool.Entry] { service.spool.entries().entries }

        /// Runs `body` while the supervisor watches the programs the service starts and the actions do their chores.
        func supervising(_ body: () async throws -> Void) async throws {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await supervisor.run(context: service.context) }
                for chores in service.actions.chores {
                    group.addTask { await chores.runChores(context: service.context) }
                }
                try await body()
                group.cancelAll()
            }
        }
    }

    /// A client that gives scripted passwords, and runs `onAsk` before each answer.
    final class ScriptedClient: LinkClient {
        let passwords: Lock<[String]>
        let prompts = Lock<[String]>([])
        let onAsk: @Sendable () -> Void

        init(_ passwords: [String], onAsk: @escaping @Sendable () -> Void = {}) {
            self.passwords = Lock(passwords)
            self.onAsk = onAsk
        }

        func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
            prompts.withLock { $0.append(prompt) }
            onAsk()
            return passwords.withLock { $0.isEmpty ? nil : Secret($0.removeFirst()) }
        }

        func code(prompt: String, rejection: BackendError?) async -> Secret? {
            prompts.withLock { $0.append(prompt) }
            return nil
        }

        var isWaiting: Bool { true }
        var canConfirm: Bool { false }
        func confirm(prompt: String) async -> Bool { false }
    }

    @Test func refusalsRecordNothing() async throws {
        let world = try World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": "forward"}]}"#
        )
        let invalid = await world.service.open("myapp://note/1#a=1&a=2")
        #expect(
            invalid.failure?.kind == .invalid
                && invalid.failure?.reason == WireProtocol.Reason(rawValue: "conflicting_parameter")
        )
        let unclaimed = await world.service.open("otherapp://x")
        #expect(unclaimed.failure?.kind == .unmatched && unclaimed.failure?.reason == .noApp)
        let web = await world.service.open("https://abcd.supabase.co/auth/v1/verify?token=t&type=recovery")
        #expect(web.failure?.message == "no app claims links to host 'abcd.supabase.co'")
        #expect(world.spooled.isEmpty)
    }

    @Test func forwardLinksWaitForTheirAppAndExpireAfterTheirTimeToLive() async throws {
        let world = try World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": "forward"}]}"#,
            forwardTTL: 0.2
        )
        #expect(
            await world.service.open("myapp://note/1")
                == .accepted(route: "myapp://note/{id}", app: "com.example.A", state: .queued)
        )
        let entry = try #require(world.spooled.first)
        guard let (app, expires) = entry.kind.forwarded else {
            Issue.record("a forward link is spooled as \(entry.kind)")
            return
        }
        #expect(app == "com.example.A" && abs(expires - (entry.accepted + 0.2)) < 0.05)
        // At its time to live the forward action's own loop drops it from the queue and the spool. The wait ends when
        // it has; its bound is generous, as the rest of the suite runs beside it (under a sanitizer too).
        let spool = FileEvents([world.root.appendingPathComponent("spool").path])
        try await world.supervising {
            #expect(await spool.wait(until: .now + .seconds(30)) { world.spooled.isEmpty })
        }
    }

    /// A queued link goes to the subscriber that comes (a world of its own: with the 0.2 s time to live above, a
    /// slow machine, or a sanitizer, let the link expire before it subscribed, and the stream never gave a line).
    @Test func aQueuedLinkGoesToTheSubscriberThatComes() async throws {
        let world = try World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": "forward"}]}"#
        )
        #expect(
            await world.service.open("myapp://note/2")
                == .accepted(route: "myapp://note/{id}", app: "com.example.A", state: .queued)
        )
        let subscriber = await world.service.subscriptions.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: world.service.context
        )
        var lines = subscriber.stream.makeAsyncIterator()
        let outgoing = try #require(await lines.next())
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(outgoing.line.utf8)) as? [String: Any])
        #expect(payload["url"] as? String == "myapp://note/2" && payload["id"] as? String == outgoing.entryID)
        #expect(world.spooled.count == 1, "handed out, not yet written")
        await world.service.subscriptions.written(outgoing.entryID, context: world.service.context)
        #expect(world.spooled.isEmpty)
    }

    /// What a stopped daemon left is taken up by kind: a program's link runs once more (and never a third time), a
    /// queued link waits again, a reset is not run again.
    @Test func theSpoolIsTakenUpByEachEntrysKind() async throws {
        let received = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: received) }
        let apps = #"""
            {"app": "com.example.A", "links": [
              {"match": "myapp://note/{id}", "action": {"exec": ["/bin/sh", "-c", "cat >> '\#(received.path)'"]}},
              {"match": "myapp://inbox/{id}", "action": "forward"},
              {"match": "myapp://reset", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "http://127.0.0.1:9", "apiKey": "k"}}
            """#
        let world = try World(apps: apps)
        let spool = world.service.spool
        let once = try spool.add(url: "myapp://note/1", kind: .exec(program: nil))
        var twice = try spool.add(url: "myapp://note/2", kind: .exec(program: nil))
        twice.attempts = 2
        try spool.write(twice)
        let queued = try spool.add(url: "myapp://inbox/3", kind: .forward(app: "com.example.A", expires: 4_102_444_800))
        _ = try spool.add(url: "myapp://reset#access_token=a.b.c&refresh_token=r", kind: .reset(sent: true))
        try await world.supervising {
            await world.service.replay(world.service.leftInSpool())
            try await world.service.activity.waitUntilQuiet()
        }
        let payloads = try await lines(of: received, count: 1)
        #expect(payloads.count == 1 && payloads[0].contains(#""id": "\#(once.id)""#))
        #expect(world.spooled.map(\.id) == [queued.id])
        let subscriber = await world.service.subscriptions.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: world.service.context
        )
        var lines = subscriber.stream.makeAsyncIterator()
        #expect(await lines.next()?.entryID == queued.id)
    }
}
