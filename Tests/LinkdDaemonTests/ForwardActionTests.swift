import Foundation
import LinkdConfig
import LinkdSession
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The `forward` queue's limit, per app: links waiting for an app, queued or handed to a subscriber that has not
/// taken them, count against it; past it a link is refused before it is recorded.
@Suite(.ownThread) struct ForwardActionTests {
    /// A service over apps A (`a://x/{id}`) and B (`b://x/{id}`), both forwarded, with a queue limit of `limit`.
    private func service(limit: Int) throws -> LinkService {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forward-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("apps.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["A", "B"] {
            let scheme = name.lowercased()
            let app =
                #"{"app": "com.example.\#(name)", "links": [{"match": "\#(scheme)://x/{id}", "action": "forward"}]}"#
            try Data(app.utf8).write(to: folder.appendingPathComponent("\(scheme).json"))
        }
        let loaded = ConfigLoader(directories: [folder], actions: .linkd).load()
        #expect(loaded.errors.isEmpty)
        return LinkService(
            resolver: LinkResolver(apps: loaded.apps, fallbackToBuiltIns: false),
            spool: Spool(directory: root.appendingPathComponent("spool").path),
            log: DaemonLog.make(environment: [:]),
            activity: Activity(),
            shutdown: Shutdown(),
            subscriberKeys: SubscriberKeys(directory: root.appendingPathComponent("keys").path),
            supervisor: ProgramSupervisor(),
            execTimeLimit: .seconds(30),
            forwardTTL: 600,
            forwardQueueLimit: limit,
            pkceStore: PKCEStore(stateFolder: root.path)
        )
    }

    @Test func anAppsLinksWaitUpToTheLimitAndAnotherAppsDoNotCount() async throws {
        let service = try service(limit: 3)
        for id in 1...3 {
            #expect(
                await service.open("a://x/\(id)")
                    == .accepted(route: "a://x/{id}", app: "com.example.A", state: .queued)
            )
        }
        let refused = await service.open("a://x/4")
        #expect(refused.failure?.kind == .temporary && refused.failure?.reason == .forwardQueueFull)
        #expect(refused.failure?.message.contains("3 links are waiting for com.example.A") == true)
        #expect(await service.open("b://x/1") == .accepted(route: "b://x/{id}", app: "com.example.B", state: .queued))
        #expect(service.spool.entries().entries.count == 4, "the refused link was not recorded")

        // Handed to a subscriber that has not taken them yet, the three still wait.
        let subscriber = await service.subscriptions.subscribe(
            "com.example.A",
            receivesSessions: false,
            context: service.context
        )
        #expect(await service.open("a://x/5").failure?.reason == .forwardQueueFull)
        var lines = subscriber.stream.makeAsyncIterator()
        let first = try #require(await lines.next())
        await service.subscriptions.written(first.entryID, context: service.context)
        #expect(
            await service.open("a://x/6") == .accepted(route: "a://x/{id}", app: "com.example.A", state: .delivered)
        )
        await service.subscriptions.unsubscribe("com.example.A", id: subscriber.id, context: service.context)
    }
}
