import Foundation
import LinkdTestSupport
import LinkdTesting
import Testing

@Suite(.ownThread) struct RouteCommandTests {
    static let canary = "c4nary7f3a9c"

    @Test func printsOneJSONObjectPerLinkWithSecretsRedacted() throws {
        let links = [
            "https://h.example/reset?token=\(Self.canary)&tokenId=\(Self.canary)2",
            "myapp://settings",
            "myapp://cb?error&code=\(Self.canary)",
        ]
        let output = try LinkdProcess.run(["route", "--json"] + links)
        #expect(
            output
                == .init(
                    stdout: """
                        {"input": "https://h.example/reset?token=<redacted>&tokenId=<redacted>", "route": "appservices.reset", "app": null, \
                        "action": null, "fields": {"token": "<redacted>", "tokenId": "<redacted>"}}
                        {"input": "myapp://settings", "route": null, "error": {"kind": "unmatched", "reason": "no_route", "part": "input", \
                        "message": "no route for 'myapp://settings'"}}
                        {"input": "myapp://cb?error&code=<redacted>", "route": null, "error": {"kind": "invalid", "reason": "empty_field", \
                        "part": "query", "message": "empty field 'error'"}}

                        """,
                    stderr: "",
                    status: 65
                )
        )
        #expect(!output.stdout.contains(Self.canary))
    }

    @Test func revealsOnlyWhenAsked() throws {
        let output = try LinkdProcess.run(["route", "--json", "--reveal", "myapp://cb?code=\(Self.canary)&next=/home"])
        #expect(
            output.stdout
                == #"{"input": "myapp://cb?code=\#(Self.canary)&next=/home", "route": "supabase.pkce", "app": null, "action": null, "fields": {"code": "\#(Self.canary)", "next": "/home"}}"#
                + "\n"
        )
        #expect(output.status == 0)
    }

    @Test func printsNumbersAsJSONNumbers() throws {
        let link = LinkFixtures.supabaseSession(expiresIn: 3_600)
        let output = try LinkdProcess.run(["route", "--json", link])
        #expect(output.stdout.contains(#""expires_in": 3600,"#))
        #expect(output.stdout.contains(#""access_token": "<redacted>""#))
        #expect(output.status == 0)
    }

    @Test func showsWhoseTokenAndWhenItExpiresInText() throws {
        let token = LinkFixtures.jwt(email: "alice@example.com", expiresAt: Date(timeIntervalSince1970: 1_000_000_000))
        let link = LinkFixtures.supabaseSession(
            redirectTo: "myapp://reset",
            accessToken: token,
            refreshToken: Self.canary
        )
        let output = try LinkdProcess.run(["route", link])
        #expect(
            output.stdout.contains(
                "\n  route:  supabase.recovery\n  app:    (built-in formats)\n  action: none (no app claims the link)\n"
                    + "  fields:\n"
            )
        )
        #expect(output.stdout.contains("    access_token   <redacted>\n"))
        #expect(output.stdout.contains("  token:  for a***@example.com, expired 2001-09-09T01:46:40Z ("))
        #expect(output.stdout.contains("ago; the session layer renews it with the link's refresh token)\n"))
        #expect(!output.stdout.contains(Self.canary) && !output.stdout.contains(token))
        #expect(output.status == 0)
    }

    /// An Apple id token is renewed by no one: `route` does not say the session layer refreshes it.
    @Test func anExpiredAppleIDTokenIsSaidToBeRenewedByNoOne() throws {
        let token = LinkFixtures.jwt(email: "bob@example.com", expiresAt: Date(timeIntervalSince1970: 1_000_000_000))
        let output = try LinkdProcess.run(["route", "myapp://apple?code=c1.0.abc&id_token=\(token)&state=s1"])
        #expect(output.stdout.contains("\n  route:  apple.callback\n"), "\(output)")
        #expect(
            output.stdout.contains(
                "ago; an id token is not renewed: the backend refuses it, and the sign-in has to start again)\n"
            ),
            "\(output)"
        )
        #expect(!output.stdout.contains("renews it"))
    }

    /// A link in Outlook's wrapper routes as the link inside, and says which wrapper it came in.
    @Test func aWrappedLinkRoutesAsTheLinkInside() throws {
        let wrapped =
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fnotes.example.com%2Freset"
            + "%3Ftoken%3Dabc%26tokenId%3Ddef&data=05&reserved=0"
        let output = try LinkdProcess.run(["route", wrapped])
        #expect(output.status == 0, "\(output)")
        #expect(
            output.stdout.contains(
                "\n  in:     Outlook Safe Links: the link inside is routed, the wrapper never asked\n"
                    + "  route:  appservices.reset\n"
            ),
            "\(output)"
        )
        let json = try LinkdProcess.run(["route", "--json", wrapped])
        #expect(json.stdout.contains(#""wrapper": "Outlook Safe Links", "route": "appservices.reset""#), "\(json)")
    }

    @Test func stripsBidiControlsFromShownText() throws {
        let output = try LinkdProcess.run(["route", "myapp://r#error_code=x&error_description=a%E2%80%AEb"])
        #expect(output.stdout.contains("    error_description  ab\n"))
        #expect(!output.stdout.unicodeScalars.contains("\u{202E}"))
    }

    /// Writes `files` into a new folder `<root>/apps.d`, and a program `notes` into `<root>/home/.local/bin`; runs
    /// `linkd route --config <root>/apps.d` with `arguments` after it and `HOME` at `<root>/home`; removes the root.
    private func route(
        config files: [String: String],
        _ arguments: [String]
    ) throws -> (root: String, output: LinkdProcess.Output) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-route-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("apps.d")
        let bin = root.appendingPathComponent("home/.local/bin")
        for made in [folder, bin] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        try Data("#!/bin/sh\ncat\n".utf8).write(to: bin.appendingPathComponent("notes"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.path + "/notes")
        let output = try LinkdProcess.run(
            ["route", "--config", folder.path] + arguments,
            environment: ["HOME": root.path + "/home"]
        )
        return (root.path, output)
    }

    @Test func usesOnlyTheGivenConfigAndExplainsWhatNoAppClaims() throws {
        let notes = #"""
            { "app": "com.example.Notes",
              "links": [ { "match": "com.example.notes://reset", "format": "supabase", "action": "reset" },
                         { "match": "com.example.notes://note/{id}", "action": { "exec": ["notes"] } } ],
              "backend": { "kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon" } }
            """#
        let (root, output) = try route(
            config: ["notes.json": notes, "broken.json": "{"],
            [
                "--json", "com.example.notes://reset?code=c0de", "com.example.notes://note/7?x=1",
                "com.example.notes://settings", "myapp://cb?code=c0de",
            ]
        )
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[0]
                == #"{"input": "com.example.notes://reset?code=<redacted>", "route": "supabase.pkce", "app": "com.example.Notes", "action": "reset", "fields": {"code": "<redacted>"}}"#
        )
        #expect(
            lines[1]
                == #"{"input": "com.example.notes://note/7?x=1", "route": "com.example.notes://note/{id}", "app": "com.example.Notes", "action": {"exec": ["\#(root)/home/.local/bin/notes"]}, "fields": {"id": "7", "x": "1"}}"#
        )
        #expect(lines[2].contains(#""reason": "no_app""#))
        #expect(lines[2].contains(#"'com.example.notes://reset': host is 'settings', not 'reset'"#))
        #expect(lines[3].contains(#""reason": "no_app""#))
        #expect(
            output.stderr == "Warning: the configuration has 1 problem; run 'linkd check --config \(root)/apps.d'\n"
        )
        #expect(output.status == 1)
    }

    @Test func namesTheActionOfAClaimedLinkInText() throws {
        let notes = #"""
            { "app": "com.example.Notes",
              "links": [ { "match": "notes://note/{id}", "action": { "exec": ["/bin/sh", "-c", "cat >/dev/null", "it's"] } },
                         { "match": "notes://share", "action": { "dbus": "com.example.Notes" } },
                         { "match": "notes://inbox", "action": "forward" } ] }
            """#
        let (_, output) = try route(
            config: ["notes.json": notes],
            ["notes://note/7", "notes://share", "notes://inbox"]
        )
        #expect(
            output.stdout.split(separator: "\n").filter { $0.hasPrefix("  action: ") } == [
                #"  action: exec /bin/sh -c 'cat >/dev/null' 'it'\''s'"#,
                "  action: dbus com.example.Notes",
                "  action: forward",
            ]
        )
        #expect(output.stderr == "")
        #expect(output.status == 0)
    }

    @Test func theInstalledAppsComeFirstThenTheBuiltInsAndProblemsAreCountedOnce() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-xdg-\(UUID().uuidString)")
        let appsD = home.appendingPathComponent("linkd/apps.d")
        try FileManager.default.createDirectory(at: appsD, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try Data(#"{"app": "org.example.Mail", "links": [{"match": "mailapp://open/{id}", "action": "forward"}]}"#.utf8)
            .write(to: appsD.appendingPathComponent("mail.json"))
        try Data(#"{"app": "a.b", "links": [], "x": 1}"#.utf8).write(to: appsD.appendingPathComponent("bad.json"))
        let output = try LinkdProcess.run(
            ["route", "--json", "mailapp://open/42", "myapp://cb?code=c0de"],
            environment: ["XDG_CONFIG_HOME": home.path]
        )
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first?.contains(#""route": "mailapp://open/{id}", "app": "org.example.Mail""#) == true)
        #expect(lines.last?.contains(#""route": "supabase.pkce", "app": null"#) == true)
        #expect(output.stderr == "Warning: the configuration has 2 problems; run 'linkd check'\n")
        #expect(output.status == 0)
    }

    @Test func rejectsAConfigOptionWithoutAValue() throws {
        let output = try LinkdProcess.run(["route", "myapp://x", "--config"])
        #expect(
            output.stderr.hasPrefix(
                "Error: missing value for '--config'\nUsage: linkd route [--json] [--reveal] [--web] [--config <dir>] <url> ...\n"
            )
        )
        #expect(output.status == 64)
    }

    /// The emailed link of an app's own backend is that app's, as `linkd open` takes it: route names the app and the
    /// action of its link the `redirect_to` names; one whose `redirect_to` is the project's website is no app's.
    @Test func theEmailedLinkOfAnAppsOwnBackendIsThatApps() throws {
        let notes = #"""
            { "app": "com.example.Notes",
              "links": [ { "match": "com.example.notes://reset", "format": "supabase", "action": "reset" } ],
              "backend": { "kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "anon" } }
            """#
        let verify = "https://abcd.supabase.co/auth/v1/verify?token=pkce_\(Self.canary)&type=recovery&redirect_to="
        let (_, text) = try route(config: ["notes.json": notes], [verify + "com.example.notes://reset"])
        #expect(
            text.stdout == """
                \(verify.replacingOccurrences(of: "pkce_" + Self.canary, with: "<redacted>"))com.example.notes://reset
                  app:    com.example.Notes
                  action: reset, on the link its backend abcd.supabase.co leads to (an emailed link of the app's backend)

                """,
            "\(text)"
        )
        #expect(text.status == 0)
        let (_, json) = try route(config: ["notes.json": notes], ["--json", verify + "com.example.notes://reset"])
        #expect(
            json.stdout.contains(
                #""app": "com.example.Notes", "action": "reset", "fields": {}, "emailedBy": "abcd.supabase.co"}"#
            )
        )
        #expect(!json.stdout.contains(Self.canary) && !text.stdout.contains(Self.canary))
        let (_, site) = try route(config: ["notes.json": notes], [verify + "https://notes.example.com/welcome"])
        #expect(site.status == 1, "\(site)")
        #expect(site.stdout.isEmpty)
    }

    /// `--web` decides as a click does, from the cache alone: a link an app claims whose site's file was never fetched
    /// opens in the browser, and route says why; exit 1.
    @Test func webSaysWhereAClickGoesAndWhy() throws {
        let app = #"""
            {"app": "com.example.Web", "web": {"appleAppId": "ABCDE12345.com.example.web"},
             "links": [{"match": "https://web.example.com/open/{id}", "action": "forward"}]}
            """#
        let (_, output) = try route(
            config: ["web.json": app],
            ["--web", "https://web.example.com/open/1?t=\(Self.canary)"]
        )
        #expect(
            output.stdout == """
                https://web.example.com/open/1?t=\(Self.canary)
                  click:  opens the browser
                  why:    com.example.Web claims it, but apple-app-site-association: not fetched yet

                """,
            "\(output)"
        )
        #expect(output.status == 1)
        // A link the app's pattern matches that does not read as its format: the daemon would refuse it.
        let reset = #"""
            {"app": "com.example.Reset", "web": {"appleAppId": "ABCDE12345.com.example.reset"},
             "links": [{"match": "https://web.example.com/reset", "format": "appservices", "action": "forward"}]}
            """#
        let (_, unread) = try route(config: ["reset.json": reset], ["--web", "https://web.example.com/reset?token=t"])
        #expect(
            unread.stdout.hasSuffix(
                "  why:    com.example.Reset's link matches it, but it does not read as that link: missing_field\n"
            ),
            "\(unread)"
        )
        let (_, json) = try route(config: ["web.json": app], ["--web", "--json", "http://web.example.com/open/1"])
        #expect(
            json.stdout
                == #"{"input": "http://web.example.com/open/1", "opens": "browser", "app": null, "why": "only an https link can open an app"}"#
                + "\n"
        )
    }
}
