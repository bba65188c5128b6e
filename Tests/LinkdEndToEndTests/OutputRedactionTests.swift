import Foundation
import LinkdTestSupport
import Testing

/// What `linkd parse`, `route` and `open` print of a link keeps its secrets out: a path capture the route knows to be
/// a secret, a userinfo password, a secret in a nested, encoded link.
@Suite(.ownThread) struct OutputRedactionTests {
    static let canary = "CANARYx7f3a9c"

    /// A world whose extra app runs the recording program for `myapp://magic/{token}`: a secret path capture.
    static func world() throws -> DaemonHarness {
        let world = try DaemonHarness()
        let app = """
            {"app": "com.example.Magic", "links": [
              {"match": "myapp://magic/{token}", "action": {"exec": ["\(world.root.path)/record.sh"]}}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/magic.json"))
        return world
    }

    @Test func openPrintsAPathCaptureRedactedAsRouteDoes() throws {
        let world = try Self.world()
        let link = "myapp://magic/\(Self.canary)"
        let routed = try world.run(["route", "--json", link])
        let opened = try world.run(["open", "--json", link])
        #expect(routed.stdout.hasPrefix(#"{"input": "myapp://magic/<redacted>", "route": "myapp://magic/{token}""#))
        #expect(
            opened.stdout.hasPrefix(
                #"{"input": "myapp://magic/<redacted>", "ok": true, "route": "myapp://magic/{token}""#
            ),
            "\(opened)"
        )
        #expect(opened.status == 0, "\(opened)\n\(world.daemonLog())")
        #expect(!routed.stdout.contains(Self.canary) && !opened.stdout.contains(Self.canary))
        #expect(world.waitUntil(.seconds(5)) { world.receivedPayloads().count == 1 })
        // The program acts for the app: it gets the real value.
        #expect((world.receivedPayloads().first?["url"] as? String) == link)
    }

    @Test func noCommandShowsAUserinfoPasswordOrANestedSecret() throws {
        let world = try Self.world()
        let nested = "https://app.example.com/__/auth/action?mode=resetPassword&oobCode=\(Self.canary)"
        let links = [
            "https://user:\(Self.canary)@host.example/x", "https:user:\(Self.canary)@host.example/x",
            "https://x.page.link/?link=" + (nested.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
            "https://x.page.link/?link="
                + (nested.addingPercentEncoding(withAllowedCharacters: .alphanumerics)?
                    .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
        ]
        var outputs: [LinkdProcess.Output] = []
        for command in [
            ["parse"], ["parse", "--json"], ["route"], ["route", "--json"], ["open"], ["open", "--json"],
        ] {
            outputs.append(try world.run(command + links))
        }
        outputs.append(try world.run(["route", "--config=https://u:\(Self.canary)@h/"] + links))
        outputs.append(try world.run(["route", "--bogus=https://u:\(Self.canary)@h/"]))
        for output in outputs {
            #expect(!output.stderr.contains(Self.canary), "\(output)")
        }
        // `linkd parse` shows the parts of a link it reads, but never the input it refuses.
        for output in outputs.dropFirst(2) {
            #expect(!output.stdout.contains(Self.canary), "\(output)")
        }
        #expect(outputs[1].stdout.hasPrefix(#"{"input": "https://user:<redacted>@host.example/x", "error": "#))
        #expect(outputs[5].stdout.contains(#""input": "https://user:<redacted>@host.example/x", "ok": false"#))
        #expect(!world.daemonLog().contains(Self.canary))
    }
}
