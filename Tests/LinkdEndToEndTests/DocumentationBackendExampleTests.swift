import Foundation
import LinkdSystem
import LinkdTestSupport
import Testing

/// The examples of the guides that talk to a backend (blocks marked ` ```console backend `; ` totp ` when the
/// account has an authenticator named "Phone", ` browser ` when `BROWSER=firefox` names a browser): each block's
/// `linkd` commands run in order against the GoTrue and App Services doubles, the example app of
/// `share/examples/apps.d` pointed at them and its program installed, on a terminal where a person types what each
/// prompt asks (the password, the codes the doubles mailed or the authenticator shows, the answer shown after a
/// question); each prints what the guide shows, the doubles' address read as the guide's project's. A `…` in a link
/// is filled with the real value (a recovery session's tokens, the code a magic link's email leads to, a
/// `token_hash`); in what is printed, it stands for any value of a link's parameter.
@Suite(.ownThread) struct DocumentationBackendExampleTests {
    static let email = "ada@example.com"
    static let password = "a-new-passphrase-42"

    /// The end of a browser stand-in: `linkd open` on the app's link, what it prints (and what went wrong before) in
    /// `PROGRAM.log` beside it, for a failure's message.
    static let openLocation = """
        with open(sys.argv[0] + ".log", "a") as log:
            subprocess.run(["\(LinkdProcess.executable.path)", "open", location], stdout=log, stderr=log)

        """

    /// The world of one block: the doubles, the example app pointed at them, and the person's home.
    private struct World {
        let reset: ResetWorld
        let environment: [String: String]
        /// The folder of the person's programs, first on `PATH`: the app's, and the browser.
        let bin: URL
        /// What the doubles' addresses stand for in the guide.
        var addresses: [(String, String)]
        /// The Return URL page of a Sign in with Apple block.
        var page: SpawnedProcess?
        /// The Apple double of a Sign in with Apple block, kept serving for the block.
        var apple: AppleDouble?
    }

    /// The apps.d file the guide gives for Sign in with Apple: its ` ```json ` block with `"format": "apple"`.
    static func appleConfig() throws -> String {
        let guide = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent("share/doc/linkd/app-developers.md"),
            encoding: .utf8
        )
        let blocks = guide.matches(of: /```json\n([\s\S]*?)\n *```/).map { String($0.output.1) }
        return try #require(blocks.first { $0.contains(#""format": "apple""#) })
    }

    /// Sign in with Apple as the guide sets it up, against the Apple double: the guide's apps.d file (its addresses
    /// the doubles', its program the installed one), the example Return URL page, and `xdg-open` a browser that
    /// posts Apple's form to the page and hands the app's link it leads to to linkd.
    private func setUpApple(_ world: inout World, bin: URL) throws {
        let reset = world.reset
        let apple = try AppleDouble(folder: reset.world.root.appendingPathComponent("apple"))
        let free = try LoopbackListener()  // a free port, given to the page's server
        let port = free.port
        free.close()
        let returnURL = "http://127.0.0.1:\(port)/apple"
        world.page = try reset.world.start(
            [
                DocumentationTests.repository.appendingPathComponent("share/examples/apple-return.py").path,
                String(port),
            ],
            executable: "/usr/bin/python3",
            extra: ["LINKD_APPLE_APP_LINK": "com.example.notes://apple"]
        )
        world.apple = apple
        apple.addClient("com.example.notes.web", returnURLs: [returnURL])
        apple.signIn(as: Self.email, sub: "000123.0a1b.1234")
        reset.gotrue.enableApple(clientIDs: ["com.example.notes.web"], keysOf: apple)
        let config = try Self.appleConfig().replacingOccurrences(
            of: "https://abcd.supabase.co",
            with: reset.gotrue.baseURL
        )
        .replacingOccurrences(of: #""apiKey": "…""#, with: #""apiKey": "\#(GoTrueDouble.apiKey)""#)
        .replacingOccurrences(of: "/opt/notes/bin/signed-in", with: bin.appendingPathComponent("notes").path)
        .replacingOccurrences(
            of: #""redirectUri": "https://notes.example.com/apple""#,
            with: #""redirectUri": "\#(returnURL)", "authorizeUrl": "\#(apple.authorizeURL)""#
        )
        let apps = reset.world.config.appendingPathComponent("linkd/apps.d")
        try Data(config.utf8).write(to: apps.appendingPathComponent("com.example.Notes.json"))
        world.addresses.append((apple.authorizeURL, "https://appleid.apple.com/auth/authorize"))
        try ProgramFile.write(
            BrowserStandIn.postingAppleForm(then: Self.openLocation),
            to: bin.appendingPathComponent("xdg-open")
        )
    }

    private func world(_ words: [String]) throws -> World {
        let reset = try ResetWorld(emailCodes: true)
        let root = reset.world.root
        let apps = reset.world.config.appendingPathComponent("linkd/apps.d")
        try FileManager.default.removeItem(at: apps.appendingPathComponent("reset.json"))
        let example = try DocumentationTests.exampleApp()
        let pointed = example.replacingOccurrences(of: "https://abcd.supabase.co", with: reset.gotrue.baseURL)
            .replacingOccurrences(of: #""your-anon-key""#, with: #""\#(GoTrueDouble.apiKey)", "emailCodes": true"#)
            .replacingOccurrences(of: "https://services.cloud.mongodb.com", with: reset.appServices.baseURL)
            .replacingOccurrences(of: "notes-abcde", with: AppServicesDouble.appID)
        try Data(pointed.utf8).write(to: apps.appendingPathComponent("com.example.Notes.json"))
        let bin = root.appendingPathComponent(".local/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try ProgramFile.write("#!/bin/sh\ncat > /dev/null\n", to: bin.appendingPathComponent("notes"))
        var environment = [
            "HOME": root.path,
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        if words.contains("totp") {
            reset.gotrue.enrollTOTP(for: Self.email, friendlyName: "Phone", secret: Array("12345678901234567890".utf8))
        }
        if words.contains("browser") {
            // A browser that does what one does with GoTrue's /authorize page: follows its redirect, and the desktop
            // hands the app's link it ends at to linkd.
            reset.gotrue.addProviderAccount("github", email: Self.email)
            try ProgramFile.write(
                BrowserStandIn.followingRedirect(then: Self.openLocation),
                to: bin.appendingPathComponent("firefox")
            )
            environment["BROWSER"] = "firefox"
        }
        var world = World(
            reset: reset,
            environment: environment,
            bin: bin,
            addresses: [(reset.gotrue.baseURL, "https://abcd.supabase.co")]
        )
        if words.contains("apple") { try setUpApple(&world, bin: bin) }
        return world
    }

    /// `arguments` with each `…` of a link filled in.
    private func filled(_ arguments: [String], _ reset: ResetWorld) throws -> [String] {
        try arguments.map { argument in
            var argument = argument
            if argument.contains("access_token=…") {
                let session = try #require(reset.gotrue.recoverySession(for: Self.email))
                argument = argument.replacingOccurrences(
                    of: "access_token=…",
                    with: "access_token=\(session.accessToken)"
                )
                .replacingOccurrences(of: "refresh_token=…", with: "refresh_token=\(session.refreshToken)")
            }
            if argument.contains("?code=…") {
                let redirect = try #require(reset.gotrue.magicLinkRedirect(for: Self.email))
                let code = try #require(redirect.split(separator: "code=").last)
                argument = argument.replacingOccurrences(of: "code=…", with: "code=\(code)")
            }
            if argument.contains("token_hash=…") {
                let hash = try #require(reset.gotrue.recoveryTokenHash(for: Self.email))
                argument = argument.replacingOccurrences(of: "token_hash=…", with: "token_hash=\(hash)")
            }
            return argument
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
            } else if line.hasPrefix("Sign in to ") || line.hasPrefix("Signed in to "),
                let question = line.lastIndex(of: "]")
            {
                // What follows the question is what was typed: nothing is Enter.
                answers.append((prompt, count, String(line[line.index(after: question)...].drop { $0 == " " })))
            }
        }
        return answers
    }

    /// Whether `printed` is `shown`, line by line: the doubles' address read as the guide's project's, and each `…`
    /// of `shown` standing for any value of a link's parameter.
    private func agrees(_ printed: String, with shown: String, _ world: World) -> Bool {
        let printedLines = world.addresses.reduce(printed) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            .split(separator: "\n", omittingEmptySubsequences: false)
        let shownLines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        guard printedLines.count == shownLines.count else { return false }
        return zip(printedLines, shownLines).allSatisfy { printed, shown in
            // Text between the `…`s is literal; each `…` takes a value: at least one character, up to `&` or a space.
            let pieces = shown.split(separator: "…", omittingEmptySubsequences: false)
            guard let first = pieces.first, printed.hasPrefix(first) else { return false }
            var rest = printed.dropFirst(first.count)
            for piece in pieces.dropFirst() {
                let value = rest.prefix { $0 != "&" && !$0.isWhitespace }
                guard !value.isEmpty else { return false }
                rest = rest.dropFirst(value.count)
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            }
            return rest.isEmpty
        }
    }

    @Test func everyBackendExampleRunsAndPrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for (words, block) in try DocumentationDesktopExampleTests.blocks(in: document, marked: "backend") {
                let world = try world(words)
                let reset = world.reset
                defer {
                    world.page?.terminate()
                    try? FileManager.default.removeItem(at: reset.world.root)
                }
                for step in block {
                    let shown = "\(document): $ \(step.words.joined(separator: " "))"
                    guard step.words.first == "linkd" else {
                        Issue.record("\(shown): only linkd runs in a backend example")
                        continue
                    }
                    let arguments = try filled(Array(step.words.dropFirst()), reset)
                    let answers = try answers(to: step.output, reset)
                    let printed: String
                    if answers.isEmpty && step.words.dropFirst().first != "login" {
                        printed = try reset.world.run(arguments, extra: world.environment).stdout
                    } else {
                        let terminal = try reset.runOnTerminal(
                            arguments,
                            typing: answers,
                            extra: world.environment,
                            endings: ["^done:", "Error:", "^signed in:", "^requested:"]
                        )
                        printed = terminal.shown.split(separator: "\n", omittingEmptySubsequences: false)
                            .map { $0.hasSuffix(" ") ? String($0.dropLast()) : String($0) }.joined(separator: "\n")
                    }
                    let browserLog = ["firefox", "xdg-open"].compactMap {
                        try? String(contentsOf: world.bin.appendingPathComponent($0 + ".log"), encoding: .utf8)
                    }.joined()
                    #expect(agrees(printed, with: step.output, world), "\(shown)\n\(printed)\n\(browserLog)")
                    ran += 1
                }
            }
        }
        #expect(ran >= 9, "the guides show at least nine backend examples")
    }
}
