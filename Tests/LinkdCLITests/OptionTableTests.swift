import Foundation
import Testing

@testable import LinkdCLI

/// Each command's option table is where its options are declared: its help is written from it, and its usage line
/// and the man page's synopsis must name every option in it, with its value, and no other.
/// (`packaging/test-completions` checks the shells' completions against the help.)
@Suite struct OptionTableTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("share/man/man1/linkd.1")

    /// The `--words` of `text`.
    private func options(in text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
    }

    @Test func theUsageLineNamesEveryOptionOfTheTableWithItsValueAndNoOther() {
        for command in LinkdCLI.commands {
            #expect(options(in: command.usage) == Set(command.options.map(\.name)), "\(command.name)")
            for option in command.options {
                #expect(command.usage.contains(option.label), "\(command.name): \(option.label)")
            }
        }
    }

    @Test func theHelpShowsEveryOptionOfTheTableWithItsHelp() {
        for command in LinkdCLI.commands {
            #expect(command.help.contains(CommandOption.helpBlock(command.options)), "\(command.name)")
            for option in command.options {
                #expect(command.help.contains("\n  \(option.label)  "), "\(command.name): \(option.label)")
            }
        }
    }

    /// The synopsis of each command in linkd(1): from `.B linkd NAME` to the `.br` after it, dashes unescaped.
    @Test func theManPageSynopsisNamesEveryOptionOfTheTableAndNoOther() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let synopsis = try #require(page.split(separator: ".SH ").first { $0.hasPrefix("SYNOPSIS") })
        let entries = synopsis.dropFirst("SYNOPSIS\n".count).split(separator: "\n.br\n").map {
            $0.replacing("\\-", with: "-")
        }
        for command in LinkdCLI.commands {
            let own = entries.filter { $0.hasPrefix(".B linkd \(command.name)") }
            #expect(!own.isEmpty, "linkd(1) has no synopsis of \(command.name)")
            let named = own.reduce(into: Set<String>()) { $0.formUnion(options(in: String($1))) }
            #expect(named == Set(command.options.map(\.name)), "\(command.name)")
        }
    }
}
