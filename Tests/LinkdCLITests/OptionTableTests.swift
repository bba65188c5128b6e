import Testing

@testable import LinkdCLI

/// Each command's option table and synopsis are where its command line is declared: its help, usage line, man page
/// SYNOPSIS and completions are written from them, so they must agree with each other.
@Suite struct OptionTableTests {
    /// The usage line of every command, as `--help` and a usage error show it.
    static let usages = [
        "open": "linkd open [--json] [--password-stdin] [--code-stdin] [--web] <url> ...",
        "parse": "linkd parse [--json] [--reveal] <url> ...",
        "route": "linkd route [--json] [--reveal] [--web] [--config <dir>] <url> ...",
        "check": "linkd check [--json] [--config <dir>]",
        "register": "linkd register [--web | [--system] [<scheme> ...]]",
        "unregister": "linkd unregister [--web | [--system] [<scheme> ...]]",
        "status": "linkd status [--json]",
        "daemon": "linkd daemon [--socket <path>] [--idle-exit <seconds>]",
        "reset": "linkd reset (request | --code [--code-stdin]) --app <name> --email <address> [--password-stdin]",
        "confirm": "linkd confirm resend --app <name> --email <address> [--retry]",
        "login": "linkd login --app <name> (--email <address> [--code] [--code-stdin] | --provider <provider>)",
        "completions": "linkd completions (bash|zsh|fish | --list apps|schemes)",
    ]

    @Test func theUsageLineIsWrittenFromTheSynopsis() {
        #expect(Set(LinkdCLI.commands.map { $0.name }) == Set(Self.usages.keys))
        for command in LinkdCLI.commands {
            #expect(command.usage == Self.usages[command.name], "\(command.name)")
            #expect(command.help.contains("\nUSAGE: \(command.usage)\n"), "\(command.name)")
        }
    }

    @Test func theSynopsisNamesEveryOptionOfTheTableAndNoOther() {
        for command in LinkdCLI.commands {
            let named = command.synopsis.forms.flatMap { Synopsis.optionNames(in: $0) }
            #expect(Set(named) == Set(command.options.map(\.name)), "\(command.name)")
            for form in command.synopsis.forms {
                #expect(Set(Synopsis.optionNames(in: form)).count == Synopsis.optionNames(in: form).count)
                for (index, element) in form.enumerated() {
                    if case .action = element { #expect(index == 0, "\(command.name): an action comes first") }
                }
            }
        }
    }

    @Test func anOptionNameCompletesOneWayInEveryCommand() {
        var values: [String: ValueCompletion] = [:]
        for option in LinkdCLI.commands.flatMap({ $0.options }) {
            #expect(values[option.name, default: option.values] == option.values, "\(option.name)")
            values[option.name] = option.values
            if option.kind == .flag { #expect(option.values == .nothing, "\(option.name)") }
        }
        #expect(values["--config"] == .folders && values["--socket"] == .files)
        #expect(values["--app"] == .installed(.apps) && values["--email"] == .nothing)
        #expect(values["--list"] == .words(["apps", "schemes"]))
    }

    @Test func theHelpShowsEveryOptionOfTheTableWithItsHelp() {
        for command in LinkdCLI.commands {
            #expect(command.help.contains(CommandOption.helpBlock(command.options)), "\(command.name)")
            for option in command.options {
                #expect(command.help.contains("\n  \(option.label)  "), "\(command.name): \(option.label)")
            }
        }
    }

    @Test func theSummaryOfAHelpIsItsFirstSentenceWithoutItsPeriod() {
        #expect(CommandOption.firstSentence(of: "Show the version.") == "Show the version")
        #expect(CommandOption.firstSentence(of: "One (default: 30). Two.") == "One (default: 30)")
        #expect(CommandOption.firstSentence(of: "No period") == "No period")
    }
}
