import LinkdFormats
import LinkdWire

extension FuzzTarget {
    /// The wire protocol's readers on any line: a request is read or refused as a bad request, and an accepted one
    /// reads back from its own line as itself; a response line always reads (as a failure when it is none), and
    /// one written reads back as itself, and a failure's reason is one word of `a`–`z`, `0`–`9` and `_` (the
    /// client prints it as it is); a password question and answer read back alike.
    package static let wire = FuzzTarget("wire") { bytes in
        let line = Array(bytes)
        do throws(WireProtocol.Failure) {
            let request = try WireProtocol.Request(line: line)
            let written = request.line
            require(!written.utf8.contains(UInt8(ascii: "\n")), "a written request spans lines")
            require(
                (try? WireProtocol.Request(line: Array(written.utf8))) == request,
                "a request reads back as another"
            )
        } catch {
            require(
                error.kind == .request && !error.reason.rawValue.isEmpty && !error.message.isEmpty,
                "a bad request's failure"
            )
        }
        let response = WireProtocol.Response(line: line)
        let written = WireProtocol.Response(line: Array(response.line.utf8))
        require(!response.line.utf8.contains(UInt8(ascii: "\n")), "a written response spans lines")
        if case .failed(let failure) = response {
            require(WireProtocol.Reason(rawValue: failure.reason.rawValue) == failure.reason, "a reason is no word")
        }
        require(WireProtocol.Response(line: Array(written.line.utf8)) == written, "a response reads back as another")
        guard let object = try? JSONValue.parse(line) else { return }
        if let question = WireProtocol.SecretQuestion(object) {
            let reread = (try? JSONValue.parse(Array(question.line.utf8))).flatMap(WireProtocol.SecretQuestion.init)
            require(reread == question, "a question for a secret reads back as another")
        }
        for asked in [WireProtocol.SecretQuestion.Asked.password, .code] {
            let question = WireProtocol.SecretQuestion(asked, prompt: "", error: nil)
            guard let secret = WireProtocol.secret(inAnswer: object, to: question) else { continue }
            let answer = WireProtocol.answer(secret, to: question)
            let reread = WireProtocol.secret(inAnswer: try? JSONValue.parse(Array(answer.utf8)), to: question)
            require(reread?.revealed() == secret.revealed(), "an answer reads back as another")
        }
    }
}
