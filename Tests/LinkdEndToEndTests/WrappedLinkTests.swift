import Foundation
import LinkdTestSupport
import Testing

/// `linkd open` of a link that came in a mail scanner's wrapper, typed or piped: the daemon takes the link inside,
/// whose app gets it as if it had been mailed bare, and the log names that link's route, never the wrapper's.
@Suite(.ownThread) struct WrappedLinkTests {
    @Test func theAppGetsTheLinkInsideGooglesRedirector() throws {
        let world = try DaemonHarness()
        let inner = "myapp://note/7?x=1"
        let wrapped = "https://www.google.com/url?q=myapp%3A%2F%2Fnote%2F7%3Fx%3D1&sa=D&usg=AOvVaw0"
        let output = try world.run(["open", "-"], stdin: Data((wrapped + "\n").utf8))
        #expect(output.status == 0, "\(output)\n\(world.daemonLog())")
        #expect(output.stdout == "delivered: myapp://note/{id} → com.example.Notes\n")
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
        let payload = try #require(world.receivedPayloads().first)
        #expect(payload["url"] as? String == inner)
        #expect((payload["fields"] as? [String: String])?["id"] == "7")
        #expect(!world.daemonLog().contains("google"))
    }

    /// The link inside is routed as any link: one no app claims is refused by its own host.
    @Test func aWrappedLinkNoAppClaimsIsRefusedByTheHostInside() throws {
        let world = try DaemonHarness()
        let wrapped = "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fnews.example%2Fa&reserved=0"
        let output = try world.run(["open", wrapped])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr == "Error: link 1: no app claims links to host 'news.example' [no_app]\n")
    }
}
