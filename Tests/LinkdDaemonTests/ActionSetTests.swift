import LinkdConfig
import Testing

@testable import LinkdDaemon

/// The one list of actions: every keyword apps.d can name, and every kind a spool entry can have, finds its action
/// there, under the keyword the action itself declares.
@Suite struct ActionSetTests {
    @Test func everyConfiguredActionAndSpoolKindHasItsAction() throws {
        let world = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://x", "action": "forward"}]}"#
        )
        let actions = world.service.actions.byKeyword
        #expect(Set(actions.keys) == Set(LinkAction.keywords))
        for (keyword, action) in actions { #expect(type(of: action).keyword == keyword) }
        let configured: [LinkAction] = [
            .reset, .exec(["/bin/true"]), .dbus("org.example.A"), .forward, .signin(.forward),
        ]
        #expect(configured.map(\.keyword) == LinkAction.keywords)
        let kinds: [Spool.Entry.Kind] = [
            .reset(sent: false), .exec(program: nil), .dbus, .forward(app: "com.example.A", expires: 1), .signin,
        ]
        #expect(kinds.map(\.keyword) == LinkAction.keywords)
    }
}
