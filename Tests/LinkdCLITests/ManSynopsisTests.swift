import Foundation
import Testing

@testable import LinkdCLI

/// linkd(1)'s SYNOPSIS is written from the command table: the page holds what ``ManSynopsis`` writes.
/// `LINKD_REGENERATE=1 swift test --filter ManSynopsisTests` writes it into the page.
@Suite struct ManSynopsisTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("share/man/man1/linkd.1")

    /// The page's text before its SYNOPSIS, the SYNOPSIS, and the text from the next section on.
    static func parts(of page: String) throws -> (before: Substring, synopsis: Substring, after: Substring) {
        let start = try #require(page.firstRange(of: "\n.SH SYNOPSIS\n")).upperBound
        let end = try #require(page[start...].firstRange(of: "\n.SH ")).lowerBound
        let next = page.index(after: end)
        return (page[..<start], page[start..<next], page[next...])
    }

    @Test func thePageHoldsTheGeneratedSynopsis() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let (before, part, after) = try Self.parts(of: page)
        let synopsis = String(part)
        let generated = ManSynopsis.text(for: LinkdCLI.commands)
        if synopsis != generated, ProcessInfo.processInfo.environment["LINKD_REGENERATE"] == "1" {
            try Data((before + generated + after).utf8).write(to: Self.manPage)
            return
        }
        #expect(
            synopsis == generated,
            "linkd.1's SYNOPSIS is not the table's: LINKD_REGENERATE=1 swift test --filter ManSynopsisTests writes it"
        )
    }

    @Test func eachFormIsALineOfTheCommandWithItsOptionsAndArguments() {
        let text = ManSynopsis.text(for: LinkdCLI.commands)
        let forms = text.split(separator: ".br\n").map(String.init)
        #expect(forms.count == LinkdCLI.commands.map { $0.synopsis.forms.count }.reduce(0, +))
        #expect(forms.first?.hasPrefix(".B linkd open\n.RB [ \\-\\-json ]\n") == true)
        #expect(text.contains(".RB [ \\-\\-config\n.IR dir ]\n.IR url ...\n"))
        #expect(
            text.contains(
                ".B linkd register\n.RB [ \\-\\-system ]\n.RI [ scheme ...]\n.br\n.B linkd register \\-\\-web\n"
            )
        )
        #expect(text.contains(".B linkd reset request \\-\\-app\n.I name\n.B \\-\\-email\n.I address\n"))
        #expect(text.contains(".RB ( \\-\\-email\n.I address\n.RB [ \\-\\-code ]\n.RB [ \\-\\-code\\-stdin ]\n|\n"))
        #expect(text.contains(".B \\-\\-provider\n.IR provider )\n"))
        #expect(text.hasSuffix(".B linkd completions \\-\\-list\n.BR apps | schemes\n"))
        for command in LinkdCLI.commands {
            #expect(text.contains(".B linkd \(command.name)"), "\(command.name)")
            for option in command.options {
                #expect(text.contains(option.name.replacing("-", with: "\\-")), "\(command.name) \(option.name)")
            }
        }
    }

    /// troff's alternating macros take two fonts: a word of three would need another form.
    @Test func everyMacroLineAlternatesTwoFonts() {
        for line in ManSynopsis.text(for: LinkdCLI.commands).split(separator: "\n") where line.hasPrefix(".") {
            let macro = line.prefix { $0 != " " }
            #expect([".B", ".I", ".br", ".RB", ".BR", ".IR", ".RI"].contains(macro), "\(line)")
            #expect(!line.contains(" -"), "an unescaped dash: \(line)")
        }
    }
}
