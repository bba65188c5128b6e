import Foundation
import LinkdDesktop
import Testing

@Suite struct DesktopEntryTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("share/applications/linkd.desktop").path

    @Test func theShippedEntryEndsInAnUnquotedFieldCodeAndIsHidden() throws {
        let text = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        #expect(DesktopEntry.execProblem(in: text) == nil)
        #expect(text.contains("\nExec=linkd open %u\n"))
        #expect(text.contains("\nNoDisplay=true\n") && text.contains("\nTerminal=false\n"))
        #expect(DesktopEntry.schemes(in: text) == ["com.example.notes"])
    }

    @Test(arguments: [
        ("Exec=linkd open %u", nil as String?),
        ("Exec=linkd open %U", nil),
        (
            "Exec=linkd open",
            "Exec= does not end in %u, so GIO would start the handler without the link: Exec=linkd open"
        ),
        ("Exec=linkd open \"%u\"", "Exec= has its %u quoted or joined to other text: Exec=linkd open \"%u\""),
        (
            "Exec=linkd open %u --x",
            "Exec= does not end in %u, so GIO would start the handler without the link: Exec=linkd open %u --x"
        ),
        ("Name=linkd", "there is no Exec= line"),
    ])
    func checksTheFieldCodeRuleThatDesktopFileValidateMisses(_ line: String, _ problem: String?) {
        #expect(DesktopEntry.execProblem(in: "[Desktop Entry]\n\(line)\n") == problem)
    }

    @Test func quotesAnExecutablePathWithSpaces() {
        let entry = DesktopEntry(executable: "/opt/my apps/linkd", schemes: ["b", "a", "b"])
        #expect(entry.text.contains("\nExec=\"/opt/my apps/linkd\" open %u\n"))
        #expect(entry.schemes == ["a", "b"])
    }

    /// An entry with CR LF line ends (edited on another system) is read line by line all the same: a split at
    /// `"\n"` as a Character saw one line, no `MimeType=` and no `Exec=`.
    @Test func readsAnEntryWithCRLFLineEnds() {
        let text = "[Desktop Entry]\r\nExec=/usr/bin/linkd open %u\r\nMimeType=x-scheme-handler/myapp;\r\n"
        #expect(DesktopEntry.schemes(in: text) == ["myapp"])
        #expect(DesktopEntry.execProblem(in: text) == nil)
        #expect(DesktopEntry.execProblem(in: "[Desktop Entry]\r\nExec=/usr/bin/linkd open\r\n") != nil)
    }
}
