import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire
import Testing

/// A failure's reason is one word, whatever a daemon sends: a client prints it as it is.
@Suite struct FailureVocabularyTests {
    private func failure(reason: String) -> WireProtocol.Failure? {
        let error = JSONValue.object([
            ("kind", .string("refused")), ("reason", .string(reason)), ("message", .string("m")),
        ])
        return WireProtocol.Response(
            line: Array(JSONValue.object([("ok", .bool(false)), ("error", error)]).serialized.utf8)
        )
        .failure
    }

    @Test func aReasonADaemonSendsIsKeptWhenItIsAWordElseItReadsAsBadResponse() {
        #expect(failure(reason: "a_newer_reason_2")?.reason.rawValue == "a_newer_reason_2")
        #expect(
            failure(reason: "link_expired")?.reason
                == WireProtocol.Reason(ResetFailureKind.linkExpiredOrUsed)
        )
        for hostile in [
            "\u{1B}[31mred", "\u{1B}]0;PWNED\u{07}", "two words", "Upper", "", String(repeating: "a", count: 65),
        ] {
            #expect(failure(reason: hostile)?.reason == .badResponse, "\(hostile.debugDescription)")
        }
        #expect(failure(reason: String(repeating: "a", count: 64))?.reason.rawValue.utf8.count == 64)
    }

    @Test func aReasonWrittenReadsBackAsItself() {
        let sent = WireProtocol.Failure(kind: .temporary, reason: .tooManyPrograms, message: "m")
        let read = WireProtocol.Response(line: Array(WireProtocol.Response.failed(sent).line.utf8)).failure
        #expect(read == sent)
    }
}

/// A sign-in's failure keeps, on the wire, the reason and exit code its kind has.
@Suite struct SignInFailureOnTheWireTests {
    @Test(arguments: [
        (SignInFailureKind.linkExpiredOrUsed, ExitCode.invalid), (.refused, .invalid), (.unreachable, .unavailable),
        (.stateUnwritable, .unavailable), (.temporary, .temporaryFailure),
    ])
    func aSignInFailureExitsWithItsKindsCode(_ kind: SignInFailureKind, _ code: ExitCode) {
        let failure = WireProtocol.Failure(SignInFailure(kind: kind, message: "m"))
        #expect(failure.kind.exitCode == code)
        #expect(failure.reason.rawValue == kind.rawValue && failure.message == "m")
    }
}
