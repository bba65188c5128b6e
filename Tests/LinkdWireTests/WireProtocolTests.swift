import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire
import Testing

/// Every request and response shape of the wire protocol, byte for byte, and what malformed lines become.
@Suite struct WireProtocolTests {
    @Test(arguments: [
        (
            WireProtocol.Request.open(url: "myapp://x", interactive: true),
            #"{"op": "open", "url": "myapp://x", "interactive": true}"#
        ),
        (.open(url: "a\"b", interactive: false), #"{"op": "open", "url": "a\"b", "interactive": false}"#),
        (
            .open(url: "https://n.example/r", interactive: false, web: true),
            #"{"op": "open", "url": "https://n.example/r", "interactive": false, "web": true}"#
        ),
        (
            .open(
                url: "myapp://x",
                interactive: false,
                focus: WireProtocol.Focus(activationToken: "t-1", startupID: "s_TIME1")
            ),
            #"{"op": "open", "url": "myapp://x", "interactive": false, "focus": {"activation_token": "t-1", "startup_id": "s_TIME1"}}"#
        ),
        (.subscribe(app: "com.example.Notes"), #"{"op": "subscribe", "app": "com.example.Notes"}"#),
        (
            .subscribe(app: "com.example.Notes", key: Secret("ab12")),
            #"{"op": "subscribe", "app": "com.example.Notes", "key": "ab12"}"#
        ),
        (.awaitSignIn(app: "a.b", canConfirm: false), #"{"op": "await_signin", "app": "a.b"}"#),
        (.awaitSignIn(app: "a.b", canConfirm: true), #"{"op": "await_signin", "app": "a.b", "confirm": true}"#),
    ])
    func requestsReadBackAsWritten(_ request: WireProtocol.Request, _ line: String) throws {
        #expect(request.line == line)
        #expect(try WireProtocol.Request(line: Array(line.utf8)) == request)
    }

    /// A focus that is not printable text of at most 256 bytes is none: it would reach an environment and a window.
    @Test(arguments: [
        #"{"activation_token": "a b"}"#, #"{"activation_token": ""}"#, #"{"startup_id": 7}"#, #""t""#,
        #"{"activation_token": "\#(String(repeating: "x", count: 257))"}"#, #"{"activation_token": "a\u0001b"}"#,
    ])
    func anUnprintableFocusIsNone(_ focus: String) throws {
        let line = #"{"op": "open", "url": "u", "focus": "# + focus + "}"
        #expect(try WireProtocol.Request(line: Array(line.utf8)) == .open(url: "u", interactive: false))
    }

    @Test func theFocusIsTheDesktopsGivenOne() {
        #expect(WireProtocol.Focus.given { _ in nil } == nil)
        #expect(WireProtocol.Focus.given { $0 == "XDG_ACTIVATION_TOKEN" ? "" : nil } == nil)
        #expect(
            WireProtocol.Focus.given { $0 == "DESKTOP_STARTUP_ID" ? "id_TIME2" : nil }?.environment == [
                "DESKTOP_STARTUP_ID": "id_TIME2"
            ]
        )
        #expect(
            WireProtocol.Focus(activationToken: "t", startupID: nil).platformData == ["activation-token": "t"]
        )
    }

    @Test func anOpenWithoutInteractiveIsNotInteractive() throws {
        #expect(
            try WireProtocol.Request(line: Array(#"{"op": "open", "url": "u"}"#.utf8))
                == .open(url: "u", interactive: false)
        )
    }

    @Test(arguments: [
        ("", "bad_request", "a request is one JSON object per line"),
        ("[1]", "bad_request", "a request is one JSON object per line"),
        (#"{"op": "open""#, "bad_request", "a request is one JSON object per line"),
        (#"{"url": "u"}"#, "bad_request", "the request has no 'op'"),
        (#"{"op": "open"}"#, "bad_request", "an 'open' request needs a 'url' string"),
        (#"{"op": "open", "url": 5}"#, "bad_request", "an 'open' request needs a 'url' string"),
        (#"{"op": "subscribe", "app": ""}"#, "bad_request", "a 'subscribe' request needs an 'app' string"),
        (#"{"op": "subscribe", "app": "a", "key": 1}"#, "bad_request", "a subscription's 'key' is a string"),
        (#"{"op": "await_signin"}"#, "bad_request", "an 'await_signin' request needs an 'app' string"),
        (#"{"op": "frob\u001b[31mnicate"}"#, "unknown_op", #"unknown op 'frob\u{1B}[31mnicate'"#),
    ])
    func malformedLinesAreRequestFailures(_ line: String, _ reason: String, _ message: String) {
        #expect(
            throws: WireProtocol.Failure(
                kind: .request,
                reason: WireProtocol.Reason(rawValue: reason)!,
                message: message
            )
        ) {
            try WireProtocol.Request(line: Array(line.utf8))
        }
    }

    @Test(arguments: [
        (
            WireProtocol.Response.accepted(route: "myapp://note/{id}", app: "com.example.Notes", state: .delivered),
            #"{"ok": true, "route": "myapp://note/{id}", "app": "com.example.Notes", "state": "delivered"}"#
        ),
        (
            .accepted(
                route: "supabase.recovery",
                app: "a",
                state: .done,
                message: "the password of a***@b.c was changed"
            ),
            #"{"ok": true, "route": "supabase.recovery", "app": "a", "state": "done", "message": "the password of a***@b.c was changed"}"#
        ),
        (
            .accepted(route: "r", app: nil, state: .queued),
            #"{"ok": true, "route": "r", "app": null, "state": "queued"}"#
        ),
        (.subscribed(app: "a"), #"{"ok": true, "app": "a", "state": "subscribed"}"#),
        (.waiting(app: "a"), #"{"ok": true, "app": "a", "state": "waiting"}"#),
        (
            .failed(
                WireProtocol.Failure(
                    kind: .invalid,
                    reason: WireProtocol.Reason(RefusalReason.userinfo),
                    part: "userinfo",
                    message: "m"
                )
            ),
            #"{"ok": false, "error": {"kind": "invalid", "reason": "userinfo", "part": "userinfo", "message": "m"}}"#
        ),
        (
            .failed(.daemonStopping),
            #"{"ok": false, "error": {"kind": "temporary", "reason": "daemon_stopping", "message": "linkd is stopping and did nothing with the link; open it again"}}"#
        ),
    ])
    func responsesReadBackAsWritten(_ response: WireProtocol.Response, _ line: String) {
        #expect(response.line == line)
        #expect(WireProtocol.Response(line: Array(line.utf8)) == response)
    }

    @Test func aFailureMessageThatQuotesALinkIsRedacted() {
        let failure = WireProtocol.Failure(
            kind: .unavailable,
            reason: .actionFailed,
            message: "app said: myapp://x#access_token=aaa.bbb.ccc&refresh_token=SECRETrt"
        )
        let line = WireProtocol.Response.failed(failure).line
        #expect(!line.contains("SECRETrt") && !line.contains("aaa.bbb.ccc"))
    }

    @Test(arguments: [
        ("not json", "the daemon answered 'not json'"),
        (#"{"ok": false}"#, #"the daemon answered '{"ok": false}'"#),
        (#"{"ok": true, "state": "sideways"}"#, #"the daemon answered '{"ok": true, "state": "sideways"}'"#),
    ])
    func aLineThatIsNoResponseReadsAsABadResponse(_ line: String, _ message: String) {
        #expect(
            WireProtocol.Response(line: Array(line.utf8))
                == .failed(WireProtocol.Failure(kind: .request, reason: .badResponse, message: message))
        )
    }

    @Test func anUnknownFailureKindReadsAsUnavailableAndAMissingOneAsARequestFailure() {
        let unknown = WireProtocol.Response(
            line: Array(#"{"ok": false, "error": {"kind": "new", "message": "m"}}"#.utf8)
        )
        #expect(unknown.failure?.kind == .unavailable)
        let missing = WireProtocol.Response(line: Array(#"{"ok": false, "error": {"message": "m"}}"#.utf8))
        #expect(missing.failure?.kind == .request)
    }

    /// The exit codes of `linkd open`, decided by the kind alone.
    @Test func eachKindHasItsExitCode() {
        let codes = Dictionary(
            uniqueKeysWithValues: WireProtocol.Failure.Kind.allCases.map { ($0, $0.exitCode.rawValue) }
        )
        #expect(
            codes == [
                .unmatched: 1, .invalid: 65, .request: 65, .refused: 65, .unavailable: 69, .temporary: 75,
                .permission: 77,
            ]
        )
    }

    @Test func routingErrorsMapToOneFailureEach() throws {
        let refused = RouteError.refused(.userinfo, part: .userinfo, "userinfo is not allowed")
        #expect(
            WireProtocol.Failure(refused, link: nil)
                == WireProtocol.Failure(
                    kind: .invalid,
                    reason: WireProtocol.Reason(RefusalReason.userinfo),
                    part: "userinfo",
                    message: "userinfo is not allowed"
                )
        )
        let web = try LinkURL(parsing: "https://abcd.supabase.co/auth/v1/verify?token=t")
        var router = Router<Int>()
        router.add(try RoutePattern("myapp://x")) { _ in 1 }
        let unmatched: RouteError
        do throws(RouteError) {
            _ = try router.route(web)
            Issue.record("routed")
            return
        } catch {
            unmatched = error
        }
        #expect(
            WireProtocol.Failure(unmatched, link: web)
                == WireProtocol.Failure(
                    kind: .unmatched,
                    reason: .noApp,
                    message: "no app claims links to host 'abcd.supabase.co'"
                )
        )
        let custom = try LinkURL(parsing: "myapp://y")
        let failure = WireProtocol.Failure(unmatched, link: custom)
        #expect(failure.kind == .unmatched)
        #expect(failure.message == "no app claims this 'myapp://y' link; 'linkd route' with the link says why")
    }

    @Test(arguments: [
        (ResetFailureKind.linkExpiredOrUsed, WireProtocol.Failure.Kind.refused),
        (.passwordRejected, .refused), (.refused, .refused), (.unreachable, .unavailable),
        (.stateUnwritable, .unavailable), (.temporary, .temporary), (.cancelled, .temporary),
    ])
    func resetFailuresKeepTheirExitCodeOnTheWire(_ reset: ResetFailureKind, _ kind: WireProtocol.Failure.Kind) {
        let failure = ResetFailure(kind: reset, message: "m")
        let wire = WireProtocol.Failure(failure)
        #expect(wire == WireProtocol.Failure(kind: kind, reason: WireProtocol.Reason(reset), message: "m"))
    }

    @Test func passwordQuestionsAndAnswers() throws {
        let question = WireProtocol.SecretQuestion(prompt: "New password for a***@b.c", error: "too short")
        #expect(question.line == #"{"ask": "password", "prompt": "New password for a***@b.c", "error": "too short"}"#)
        #expect(WireProtocol.SecretQuestion(try JSONValue.parse(Array(question.line.utf8))) == question)
        #expect(WireProtocol.SecretQuestion(try JSONValue.parse(Array(#"{"ok": true}"#.utf8))) == nil)
        #expect(WireProtocol.answer(Secret("pw"), to: question) == #"{"password": "pw"}"#)
        #expect(WireProtocol.answer(nil, to: question) == #"{"password": null}"#)
        let answer = try JSONValue.parse(Array(#"{"password": "pw"}"#.utf8))
        #expect(WireProtocol.secret(inAnswer: answer, to: question)?.revealed() == "pw")
        let empty = try JSONValue.parse(Array(#"{"password": ""}"#.utf8))
        #expect(WireProtocol.secret(inAnswer: empty, to: question) == nil)
    }

    @Test func codeQuestionsAreAnsweredWithACodeNeverWithAPassword() throws {
        let question = WireProtocol.SecretQuestion(.code, prompt: "Authenticator code for a@b.c (Notes)", error: nil)
        #expect(question.line == #"{"ask": "code", "prompt": "Authenticator code for a@b.c (Notes)"}"#)
        #expect(WireProtocol.SecretQuestion(try JSONValue.parse(Array(question.line.utf8))) == question)
        #expect(WireProtocol.answer(Secret("123456"), to: question) == #"{"code": "123456"}"#)
        let code = try JSONValue.parse(Array(#"{"code": "123456"}"#.utf8))
        #expect(WireProtocol.secret(inAnswer: code, to: question)?.revealed() == "123456")
        let password = try JSONValue.parse(Array(#"{"password": "123456"}"#.utf8))
        #expect(WireProtocol.secret(inAnswer: password, to: question) == nil, "a password is no answer to a code")
        let unknown = try JSONValue.parse(Array(#"{"ask": "pin", "prompt": "x"}"#.utf8))
        #expect(WireProtocol.SecretQuestion(unknown) == nil)
    }
}
