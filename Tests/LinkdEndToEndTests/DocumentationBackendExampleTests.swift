import Foundation
import LinkdTestSupport
import Testing

/// The examples of the guides that talk to a backend (blocks marked ` ```console backend `, with ` totp ` when the
/// account has an authenticator named "Phone"): each block's `linkd` commands run in order against the GoTrue and App
/// Services doubles, the example app of `share/examples/apps.d` pointed at them, on a terminal where a person types
/// what each prompt asks (the password, the codes the doubles mailed or the authenticator shows, the answer shown
/// after a question); each prints what the guide shows. A `…` in a link is filled with the real value: the tokens of
/// a recovery session the double made for `ada@example.com`.
@Suite(.ownThread) struct DocumentationBackendExampleTests {
    static let email = "ada@example.com"
    static let password = "a-new-passphrase-42"

    /// The world of one block: the doubles, and the example app pointed at them.
    private func world(totp: Bool) throws -> ResetWorld {
        let reset = try ResetWorld(emailCodes: true)
        let apps = reset.world.config.appendingPathComponent("linkd/apps.d")
        try FileManager.default.removeItem(at: apps.appendingPathComponent("reset.json"))
        let example = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(
                "share/examples/apps.d/com.example.Notes.json"
            ),
            encoding: .utf8
        )
        let pointed = example.replacingOccurrences(of: "https://abcd.supabase.co", with: reset.gotrue.baseURL)
            .replacingOccurrences(of: #""your-anon-key""#, with: #""\#(GoTrueDouble.apiKey)", "emailCodes": true"#)
            .replacingOccurrences(of: "https://services.cloud.mongodb.com", with: reset.appServices.baseURL)
            .replacingOccurrences(of: "notes-abcde", with: AppServicesDouble.appID)
        try Data(pointed.utf8).write(to: apps.appendingPathComponent("com.example.Notes.json"))
        if totp {
            reset.gotrue.enrollTOTP(for: Self.email, friendlyName: "Phone", secret: Array("12345678901234567890".utf8))
        }
        return reset
    }

    /// `arguments` with each `…` of a link filled in.
    private func filled(_ arguments: [String], _ reset: ResetWorld) throws -> [String] {
        try arguments.map { argument in
            guard argument.contains("access_token=…") else { return argument }
            let session = try #require(reset.gotrue.recoverySession(for: Self.email))
            return argument.replacingOccurrences(of: "access_token=…", with: "access_token=\(session.accessToken)")
                .replacingOccurrences(of: "refresh_token=…", with: "refresh_token=\(session.refreshToken)")
        }
    }

    /// What the person types at each prompt the guide shows in `output`.
    private func answers(to output: String, _ reset: ResetWorld) throws -> [(prompt: String, count: Int, text: String)]
    {
        var answers: [(prompt: String, count: Int, text: String)] = []
        for line in output.split(separator: "\n").map(String.init) {
            let prompt = String(line.prefix(24))
            let count = answers.filter { $0.prompt == prompt }.count + 1
            if line.hasPrefix("New password for") || line.hasPrefix("Repeat the new password") {
                answers.append((prompt, count, Self.password))
            } else if line.hasPrefix("Code from the reset email") {
                answers.append((prompt, count, try #require(reset.gotrue.emailedCode(for: Self.email))))
            } else if line.hasPrefix("Authenticator code for") {
                answers.append((prompt, count, try #require(reset.gotrue.authenticatorCode(for: Self.email))))
            }
        }
        return answers
    }

    @Test func everyBackendExampleRunsAndPrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for (words, block) in try DocumentationDesktopExampleTests.blocks(in: document, marked: "backend") {
                let reset = try world(totp: words.contains("totp"))
                defer { try? FileManager.default.removeItem(at: reset.world.root) }
                for step in block {
                    let shown = "\(document): $ \(step.words.joined(separator: " "))"
                    guard step.words.first == "linkd" else {
                        Issue.record("\(shown): only linkd runs in a backend example")
                        continue
                    }
                    let arguments = try filled(Array(step.words.dropFirst()), reset)
                    let answers = try answers(to: step.output, reset)
                    let printed: String
                    if answers.isEmpty {
                        let result = try reset.world.run(arguments)
                        printed = result.stdout
                    } else {
                        let terminal = try reset.runOnTerminal(arguments, typing: answers)
                        printed = terminal.shown.split(separator: "\n", omittingEmptySubsequences: false)
                            .map { $0.hasSuffix(" ") ? String($0.dropLast()) : String($0) }.joined(separator: "\n")
                    }
                    #expect(printed == step.output, "\(shown)")
                    ran += 1
                }
                #expect(reset.gotrue.password(of: Self.email) == Self.password, "\(document): the password changed")
            }
        }
        #expect(ran >= 4, "the guides show at least four backend examples")
    }
}
