import LinkdFormats
import Testing

@testable import LinkdWire

/// Every string a client reads from a daemon's line is text it may show: controls escaped, format controls gone.
struct DaemonTextTests {
    static let evil = "\u{1B}]0;PWNED\u{07}\u{1B}[31mred\u{9B}2J\u{202E}txt\u{90}"
    static let shown = #"\u{1B}]0;PWNED\u{7}\u{1B}[31mred\u{9B}2Jtxt\u{90}"#

    static func line(_ members: [(String, JSONValue)]) -> [UInt8] {
        Array(JSONValue.object(members).serialized.utf8)
    }

    @Test func anAcceptedAnswersRouteAppAndMessageAreText() {
        let response = WireProtocol.Response(
            line: Self.line([
                ("ok", .bool(true)), ("state", .string("done")), ("route", .string(Self.evil)),
                ("app", .string(Self.evil)), ("message", .string(Self.evil)),
            ])
        )
        #expect(response == .accepted(route: Self.shown, app: Self.shown, state: .done, message: Self.shown))
    }

    @Test(arguments: ["subscribed", "waiting"])
    func theAppOfASubscriptionOrAWaitIsText(_ state: String) {
        let response = WireProtocol.Response(
            line: Self.line([("ok", .bool(true)), ("state", .string(state)), ("app", .string(Self.evil))])
        )
        #expect(response == (state == "waiting" ? .waiting(app: Self.shown) : .subscribed(app: Self.shown)))
    }

    @Test func aFailuresMessageAndPartAreTextAndItsKindAndReasonWords() {
        let error = JSONValue.object([
            ("kind", .string(Self.evil)), ("reason", .string(Self.evil)), ("part", .string(Self.evil)),
            ("message", .string(Self.evil)),
        ])
        let response = WireProtocol.Response(line: Self.line([("ok", .bool(false)), ("error", error)]))
        let failure = WireProtocol.Failure(
            kind: .unavailable,
            reason: .badResponse,
            part: Self.shown,
            message: Self.shown
        )
        #expect(response == .failed(failure))
    }

    @Test func aLineThatIsNoAnswerIsQuotedAsText() {
        let response = WireProtocol.Response(line: Array(Self.evil.utf8))
        #expect(response.failure?.message == "the daemon answered '\(Self.shown)'")
    }

    @Test func questionsPromptsAndErrorsAreText() throws {
        let password = try #require(
            WireProtocol.SecretQuestion(
                .object([("ask", .string("password")), ("prompt", .string(Self.evil)), ("error", .string(Self.evil))])
            )
        )
        #expect(password == WireProtocol.SecretQuestion(prompt: Self.shown, error: Self.shown))
        let confirm = try #require(
            WireProtocol.ConfirmQuestion(.object([("ask", .string("confirm")), ("prompt", .string(Self.evil))]))
        )
        #expect(confirm.prompt == Self.shown)
    }
}
