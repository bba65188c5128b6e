import Foundation
import LinkdTestSupport
import Testing

/// `linkd open` refuses a link that is not UTF-8 as `linkd parse` does (`invalid_utf8`, 65), in its place among the
/// others and without sending it: its bad bytes are never replaced to make another link of it.
@Suite(.ownThread) struct OpenInvalidUTF8Tests {
    @Test func aLinkThatIsNotUTF8IsRefusedInItsPlaceAndNotSent() throws {
        let world = try DaemonHarness()
        var input = Data("myapp://note/1\n".utf8)
        input.append(contentsOf: Array("myapp://note/".utf8) + [0xFF, 0x0A])
        input.append(Data("myapp://note/3\n".utf8))
        let opened = try world.run(["open", "-"], stdin: input)
        #expect(opened.status == 65, "\(opened)")
        #expect(
            opened.stdout == "delivered: myapp://note/{id} → com.example.Notes\n"
                + "delivered: myapp://note/{id} → com.example.Notes\n"
        )
        #expect(opened.stderr == "Error: link 2: the link is not valid UTF-8 [invalid_utf8 in input]\n")
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 2 })
        let ids = world.receivedPayloads().compactMap { ($0["fields"] as? [String: Any])?["id"] as? String }
        #expect(Set(ids) == ["1", "3"], "the replaced link 'myapp://note/\u{FFFD}' was never delivered")

        let json = try world.run(["open", "--json", "-"], stdin: Data(Array("myapp://x".utf8) + [0xC3, 0x28]))
        #expect(json.status == 65)
        #expect(
            json.stdout.contains(
                #""ok": false, "error": {"kind": "invalid", "reason": "invalid_utf8", "part": "input""#
            )
        )
    }
}
