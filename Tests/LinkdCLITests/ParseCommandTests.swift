import Foundation
import LinkdTestSupport
import Testing

@Suite(.ownThread) struct ParseCommandTests {
    @Test func printsTheWHATWGPartsOfAResetLinkWithItsSecretsRedacted() throws {
        let output = try LinkdProcess.run(["parse", "HTTPS://App.Example.com:443/reset?token=abc&tokenId=def"])
        #expect(
            output
                == .init(
                    stdout: """
                        https://app.example.com/reset?token=<redacted>&tokenId=<redacted>
                          protocol:  https:
                          hostname:  app.example.com
                          pathname:  /reset
                          search:    ?token=<redacted>&tokenId=<redacted>

                        """,
                    stderr: "",
                    status: 0
                )
        )
    }

    @Test func revealPrintsTheSecretsAsTheyAre() throws {
        let output = try LinkdProcess.run([
            "parse", "--reveal", "HTTPS://App.Example.com:443/reset?token=abc&tokenId=def",
        ])
        #expect(
            output.stdout == """
                https://app.example.com/reset?token=abc&tokenId=def
                  protocol:  https:
                  hostname:  app.example.com
                  pathname:  /reset
                  search:    ?token=abc&tokenId=def

                """
        )
        let json = try LinkdProcess.run(["parse", "--json", "--reveal", "myapp://r#code=c4nary&type=x"])
        #expect(json.stdout.contains(##""hash": "#code=c4nary&type=x""##), "\(json)")
    }

    @Test func printsJSONObjectsOnePerLinkIncludingErrors() throws {
        let output = try LinkdProcess.run([
            "parse", "--json", "myapp://reset#access_token=a.b.c&type=recovery",
            "https://evil.example\\@app.example.com/",
        ])
        #expect(
            output
                == .init(
                    stdout: """
                        {"input": "myapp://reset#access_token=<redacted>&type=recovery", "href": "myapp://reset#access_token=<redacted>&type=recovery", \
                        "protocol": "myapp:", "username": "", "password": "", "hostname": "reset", "port": "", "pathname": "", "search": "", \
                        "hash": "#access_token=<redacted>&type=recovery"}
                        {"input": "https://evil.example\\\\@app.example.com/", "error": {"kind": "invalid", "reason": "invalid_character", \
                        "part": "host", "message": "a backslash is not allowed in a link (in the host)"}}

                        """,
                    stderr: "",
                    status: 65
                )
        )
    }

    @Test func readsOneLinkPerLineFromStandardInput() throws {
        let lines = "https://x.example/a\n\nmyapp://r\r\nmyapp://ok"
        let output = try LinkdProcess.run(["parse", "--json", "-"], stdin: Data(lines.utf8))
        let objects = output.stdout.split(separator: "\n")
        #expect(objects.count == 4)
        #expect(objects[1].contains(#""reason": "empty""#))
        #expect(objects[2].contains(#""reason": "surrounding_whitespace""#))
        #expect(objects[3].contains(#""href": "myapp://ok""#))
        #expect(output.status == 65)
    }

    @Test func rendersRefusalsOnceOnStandardError() throws {
        let output = try LinkdProcess.run(["parse", "myapp://ok", "javascript:alert(1)"])
        #expect(output.stdout == "myapp://ok\n  protocol:  myapp:\n  hostname:  ok\n")
        #expect(output.stderr == "Error: link 2: the scheme 'javascript' is never a link [blocked_scheme in scheme]\n")
        #expect(output.status == 65)
    }

    @Test func refusesLinksThatAreNotUTF8FromArgumentsAndStandardInput() throws {
        let expected =
            #"{"kind": "invalid", "reason": "invalid_utf8", "part": "input", "message": "the link is not valid UTF-8"}"#
        let piped = try LinkdProcess.run(
            ["parse", "--json", "-"],
            stdin: Data([0x6D, 0x79, 0x3A, 0x2F, 0x2F, 0xFF, 0x0A])
        )
        #expect(piped.stdout.contains(expected))
        #expect(piped.status == 65)
        // Foundation passes arguments as Strings; the shell passes the raw byte.
        let files = SpawnFiles.make()
        defer { try? FileManager.default.removeItem(at: files) }
        let shell = try SpawnedProcess(
            "/bin/sh",
            ["-c", #""$0" parse --json "$(printf 'myapp://x\377')""#, LinkdProcess.executable.path],
            environment: ProcessInfo.processInfo.environment,
            stdoutPath: files.appendingPathComponent("out").path
        )
        shell.waitUntilExit()
        let printed = (try? String(contentsOf: files.appendingPathComponent("out"), encoding: .utf8)) ?? ""
        #expect(printed.contains(expected))
        #expect(shell.terminationStatus == 65)
    }

    @Test func rejectsUsageErrorsWithTheUsageLine() throws {
        #expect(
            try LinkdProcess.run(["parse"])
                == .init(
                    stdout: "",
                    stderr: """
                        Error: missing expected argument '<url>'
                        Usage: linkd parse [--json] [--reveal] <url> ...
                          See 'linkd parse --help' for more information.

                        """,
                    status: 64
                )
        )
        #expect(
            try LinkdProcess.run(["parse", "--xml", "myapp://x"]).stderr.hasPrefix("Error: unknown option '--xml'\n")
        )
        #expect(try LinkdProcess.run(["parse", "-", "-"]).status == 64)
        #expect(
            try LinkdProcess.run(["frobnicate"])
                == .init(
                    stdout: "",
                    stderr: """
                        Error: unknown subcommand 'frobnicate'
                        Usage: linkd <subcommand>
                          See 'linkd --help' for more information.

                        """,
                    status: 64
                )
        )
    }

    @Test func printsHelpAndVersionOnStandardOutput() throws {
        #expect(
            try LinkdProcess.run(["parse", "--help"])
                == .init(
                    stdout: """
                        OVERVIEW: Parse links strictly and print their parts, or why each is refused.

                        USAGE: linkd parse [--json] [--reveal] <url> ...

                        ARGUMENTS:
                          <url>                   A link to parse; '-' reads one link per line from standard input.

                        OPTIONS:
                          --json                  Print one JSON object per link: the WHATWG URL API fields, or the error.
                          --reveal                Print secrets (tokens, codes, keys) instead of <redacted>.
                          -h, --help              Show help information.

                        The value of each secret-named parameter (token, code, access_token, ...) and a userinfo
                        password print as <redacted>, in every part that holds them, unless --reveal.

                        EXIT STATUS:
                          0 every link parsed, 65 some link was refused, 64 usage error.

                        """,
                    stderr: "",
                    status: 0
                )
        )
        let top = try LinkdProcess.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.hasPrefix("OVERVIEW: "))
        #expect(top.stdout.contains("\n  parse                   Parse links strictly"))
    }

    /// The version has one source, the repository's VERSION file; the build embeds it.
    @Test func versionIsTheVersionFilesWithTheProgramsName() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("VERSION")
        let version = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." })
        #expect(try LinkdProcess.run(["--version"]) == .init(stdout: "linkd \(version)\n", stderr: "", status: 0))
    }

    @Test func survivesAHugeLineOnStandardInput() throws {
        let huge = String(repeating: "a", count: 1_000_000) + "\nmyapp://after\n"
        let output = try LinkdProcess.run(["parse", "--json", "-"], stdin: Data(huge.utf8))
        let objects = output.stdout.split(separator: "\n")
        #expect(objects.count == 2)
        #expect(objects[0].contains(#""reason": "too_long""#))
        #expect(objects[1].contains(#""href": "myapp://after""#))
    }
}
