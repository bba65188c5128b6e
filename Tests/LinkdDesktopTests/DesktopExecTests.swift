import LinkdDesktop
import Testing

/// A browser's `Exec=` read as the Desktop Entry Specification says, and the argv that opens one link with it: the
/// link byte for byte as one argument, the other field codes, quoting and escaping, and every line the specification
/// calls invalid refused.
@Suite struct DesktopExecTests {
    static let link = "https://a.example/p%20q?x=1&y=%2B#frag"

    @Test(arguments: [
        ("/usr/lib/firefox-esr/firefox-esr %u", ["/usr/lib/firefox-esr/firefox-esr", link]),
        ("/usr/bin/chromium %U", ["/usr/bin/chromium", link]),
        (
            "/usr/bin/flatpak run --branch=stable --arch=x86_64 --command=firefox --file-forwarding "
                + "org.mozilla.firefox @@u %u @@",
            [
                "/usr/bin/flatpak", "run", "--branch=stable", "--arch=x86_64", "--command=firefox",
                "--file-forwarding", "org.mozilla.firefox", "@@u", link, "@@",
            ]
        ),
        (
            "env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop /snap/bin/firefox %u",
            [
                "env", "BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop",
                "/snap/bin/firefox", link,
            ]
        ),
        (#""/opt/My Browser/browser" --new-window %u"#, ["/opt/My Browser/browser", "--new-window", link]),
        (
            #"browser "a \"quoted\" \$word \`x\` back\\slash" %u"#,
            ["browser", #"a "quoted" $word `x` back\slash"#, link]
        ),
        (
            "browser --title=%c --from=%k 100%% %u %d",
            ["browser", "--title=Web Browser", "--from=/apps/web.desktop", "100%", link]
        ),
        ("browser %i %u", ["browser", "--icon", "web-browser", link]),
    ])
    func opensTheLinkAsOneArgument(_ exec: String, _ expected: [String]) throws {
        let command = try DesktopExec(parsing: exec)
        #expect(
            command.argv(opening: Self.link, name: "Web Browser", icon: "web-browser", file: "/apps/web.desktop")
                == expected
        )
    }

    @Test func anEntryWithoutAnIconGivesNoIconArguments() throws {
        #expect(try DesktopExec(parsing: "browser %i %u").argv(opening: Self.link) == ["browser", Self.link])
    }

    @Test(arguments: [
        ("", DesktopExec.Problem.empty),
        ("browser", .noURLCode),
        ("browser %f", .fileCode("f")),
        ("browser %F", .fileCode("F")),
        ("browser %u %U", .severalURLCodes),
        ("browser %z %u", .unknownCode("z")),
        (#"browser "%u""#, .codeInQuotes),
        (#"browser "open %u"#, .codeInQuotes),
        (#"browser "unclosed"#, .unclosedQuote),
        ("browser --url=%u", .codeNotAlone("u")),
        ("browser $HOME %u", .reservedCharacter("$")),
        ("browser 'single' %u", .reservedCharacter("'")),
        ("browser a|b %u", .reservedCharacter("|")),
        ("A=b browser %u", .equalsInProgram),
    ])
    func anInvalidLineIsRefused(_ exec: String, _ problem: DesktopExec.Problem) {
        #expect(throws: problem) { try DesktopExec(parsing: exec) }
    }

    @Test func theEntryFileIsReadWithItsEscapesAndOnlyItsMainGroup() {
        let text = """
            # a comment
            [Desktop Entry]
            Name=Web Browser
            Name[fr]=Navigateur
            Exec=browser\\s--private %u
            TryExec = /usr/bin/browser
            DBusActivatable=true
            Exec=second %u

            [Desktop Action new-window]
            Exec=browser --new-window %u
            """
        let file = DesktopEntryFile(text)
        #expect(file["Name"] == "Web Browser")
        #expect(file["Exec"] == "browser --private %u")
        #expect(file["TryExec"] == "/usr/bin/browser")
        #expect(file.flag("DBusActivatable"))
        #expect(!file.flag("Terminal"))
        #expect(file.values.count == 4)
    }
}
