import Foundation
import Testing

@testable import LinkdCLI

/// What the completion scripts hold, as the command table writes them: every command, every option where its
/// command's forms take it, and each value the way its option declares. (`packaging/test-completions` runs them.)
@Suite struct CompletionScriptTests {
    static let bash = BashCompletion.script(for: LinkdCLI.commands)
    static let zsh = ZshCompletion.script(for: LinkdCLI.commands)
    static let fish = FishCompletion.script(for: LinkdCLI.commands)

    /// The lines of a `case` arm of bash's or zsh's script: from `        NAME)` to the next arm.
    static func arm(_ name: String, of script: String) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("        \(name))") }) else { return "" }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("        ") && $0.dropFirst(8).first != " " }
        return lines[start..<(end ?? lines.endIndex)].joined(separator: "\n")
    }

    /// The arm of bash's `case $prev in` for an option's value: its pattern's line to its `return ;;`.
    static func valueArm(_ name: String) -> String {
        let lines = bash.split(separator: "\n")
        guard
            let start = lines.firstIndex(where: { line in
                line.hasPrefix("            -") && line.hasSuffix(")")
                    && line.dropLast().split(separator: "|").contains {
                        $0.trimmingCharacters(in: .whitespaces) == name
                    }
            })
        else { return "" }
        let end = lines[start...].firstIndex { $0.hasSuffix("return ;;") } ?? start
        return lines[start...end].joined(separator: "\n")
    }

    /// fish's lines about one command.
    static func fishLines(_ name: String) -> [Substring] {
        fish.split(separator: "\n").filter { $0.contains("'__linkd_is \(name)") }
    }

    @Test func eachScriptOffersEveryCommandWithItsAbstract() {
        for command in LinkdCLI.commands {
            let summary = String(command.abstract.dropLast())
            #expect(Self.bash.contains("local commands='") && Self.bash.contains(" \(command.name)"))
            #expect(Self.zsh.contains("    '\(command.name):"), "\(command.name)")
            #expect(Self.fish.contains("-a \(command.name) -d '"), "\(command.name)")
            #expect(!Self.arm(command.name, of: Self.bash).isEmpty && !Self.arm(command.name, of: Self.zsh).isEmpty)
            if !summary.contains("'") && !summary.contains(":") {
                #expect(Self.zsh.contains("'\(command.name):\(summary)'") && Self.fish.contains("'\(summary)'"))
            }
        }
    }

    @Test func eachScriptOffersEveryOptionOfEachCommand() {
        for command in LinkdCLI.commands {
            let (bash, zsh, fish) = (
                Self.arm(command.name, of: Self.bash), Self.arm(command.name, of: Self.zsh),
                Self.fishLines(command.name)
            )
            for option in command.options {
                #expect(
                    bash.contains(option.name + " ") || bash.contains(option.name + "'"),
                    "\(command.name) \(option.name)"
                )
                let zshSpec = option.kind == .flag ? option.name + "[" : option.name + "=["
                #expect(zsh.contains(zshSpec), "\(command.name) \(option.name)")
                #expect(
                    fish.contains { $0.contains(" -l \(option.name.dropFirst(2)) ") },
                    "\(command.name) \(option.name)"
                )
            }
        }
    }

    @Test func eachValueCompletesAsItsOptionDeclares() {
        let valueOptions = LinkdCLI.commands.flatMap { $0.options }.filter { $0.kind == .value }
        for option in valueOptions {
            let name = option.name
            let (bash, zsh, fish): (String, String, String) =
                switch option.values {
                case .folders: ("_filedir -d;", ":_files -/'", "-x -a '(__linkd_directories)'")
                case .files: ("_filedir;", ":_files'", "-r -F")
                case .installed(let list):
                    (
                        "completions --list \(list.rawValue) ", ":_linkd_list \(list.rawValue)'",
                        "-x -a '(__linkd_list \(list.rawValue))'"
                    )
                case .words(let words):
                    (
                        "compgen -W '\(words.joined(separator: " "))'", ":(\(words.joined(separator: " ")))'",
                        "-x -a '\(words.joined(separator: " "))'"
                    )
                case .nothing, .links: ("return ;;", ": '", "-x -d")
                }
            #expect(Self.valueArm(name).contains(bash), "bash \(name)")
            #expect(
                Self.zsh.split(separator: "\n").contains { $0.contains("\(name)=[") && $0.contains(zsh) },
                "zsh \(name)"
            )
            #expect(
                Self.fish.split(separator: "\n").contains { $0.contains("-l \(name.dropFirst(2)) \(fish)") },
                "fish \(name)"
            )
        }
    }

    @Test func anActionSelectsTheOptionsOfItsForm() {
        let bash = Self.arm("reset", of: Self.bash)
        #expect(
            bash.contains(
                "elif [[ ${words[2]} == request ]]; then\n                options='--app --email --password-stdin'\n"
            )
        )
        #expect(bash.contains("values='request'"))
        #expect(Self.arm("confirm", of: Self.bash).contains("options='' values='resend'"))
        let zsh = Self.arm("reset", of: Self.zsh)
        #expect(zsh.contains("if [[ $words[2] == request ]]; then") && zsh.contains("'1:action:(request)'"))
        let fish = Self.fishLines("reset")
        #expect(fish.contains { $0.contains("'__linkd_is reset; and not __linkd_action request' -l code ") })
        #expect(fish.contains { $0.contains("'__linkd_is reset' -l password-stdin ") })
        #expect(
            Self.fishLines("confirm").contains {
                $0.contains("'__linkd_is confirm; and __linkd_action resend' -l retry ")
            }
        )
    }

    @Test func argumentsCompleteAsTheSynopsisDeclares() {
        #expect(Self.arm("open", of: Self.bash).contains("options='--json --password-stdin --code-stdin --web -'"))
        #expect(Self.arm("register", of: Self.bash).contains("list=schemes"))
        #expect(Self.arm("completions", of: Self.bash).contains("((cword == 2)) && values='bash zsh fish'"))
        #expect(Self.arm("parse", of: Self.zsh).contains("'*:link:_linkd_url'"))
        #expect(Self.arm("unregister", of: Self.zsh).contains("'*:URL scheme:_linkd_list schemes'"))
        #expect(Self.arm("completions", of: Self.zsh).contains("'1:shell:(bash zsh fish)'"))
        #expect(
            Self.fish.contains("'__linkd_is open parse route; and string match -q -- \"-*\" (commandline -ct)' -a -")
        )
        #expect(Self.fish.contains("'__linkd_is register' -a '(__linkd_list schemes)'"))
        #expect(Self.fish.contains("'__linkd_is completions; and __linkd_words 1' -a 'bash zsh fish'"))
    }

    @Test func optionsOfOneBranchOfAChoiceExcludeTheOthers() {
        let zsh = Self.arm("login", of: Self.zsh)
        #expect(zsh.contains("'(--email --code --code-stdin)--provider=["))
        #expect(zsh.contains("'(--provider)--email=[") && zsh.contains("'(--provider)--code-stdin["))
        #expect(zsh.contains("'--app=["))
    }

    @Test func quotesSurviveInEachShellsQuoting() {
        #expect(Self.zsh.contains(#"'reset:Ask an app'\''s backend"#))
        #expect(Self.fish.contains(#"-d 'Ask an app\'s backend"#))
        #expect(Self.zsh.contains(#"'login:Sign in to an app\: by"#))
    }
}
