import LinkdFormats
import LinkdRouting
import LinkdWire

/// `linkd parse [--json] [--reveal] URL...`: the strict parse of each link, as the WHATWG URL API would show it, its
/// secrets (secret-named parameters, a userinfo password) as `<redacted>` unless `--reveal`.
struct ParseCommand: Command {
    static let name = "parse"
    static let abstract = "Parse links strictly and print their parts, or why each is refused."
    static let synopsis = Synopsis([.optional("--json"), .optional("--reveal"), .arguments(.links)])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <url>                   A link to parse; '-' reads one link per line from standard input.

        \(CommandOption.helpBlock(options))

        The value of each secret-named parameter (token, code, access_token, ...) and a userinfo
        password print as <redacted>, in every part that holds them, unless --reveal.

        EXIT STATUS:
          0 every link parsed, 65 some link was refused, 64 usage error.

        """

    static let options: [CommandOption] = [
        .flag("--json", "Print one JSON object per link: the WHATWG URL API fields, or the error."),
        .flag("--reveal", "Print secrets (tokens, codes, keys) instead of <redacted>."),
    ]

    var json: Bool
    var reveal: Bool
    var urls: [[UInt8]]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        urls = try scanner.links(command: Self.name)
        json = scanner.flags.contains("--json")
        reveal = scanner.flags.contains("--reveal")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        var worst = ExitCode.success
        for (number, bytes) in LinkInput(arguments: urls, console: console).enumerated() {
            let input = String(decoding: bytes, as: UTF8.self)
            do {
                let link = try LinkURL(parsing: bytes)
                let shown = reveal ? { $0 } : Self.redacted
                console.write(json ? Self.json(link, input: input, shown) + "\n" : Self.text(link, shown))
            } catch {
                worst = max(worst, .invalid)
                if json {
                    console.write(
                        JSONValue.object([("input", .string(LinkRedactor.redact(input))), ("error", error.json)])
                            .serialized + "\n"
                    )
                } else {
                    console.writeError(LinkFailureLine.text(link: number + 1, error, reveal: reveal))
                }
            }
        }
        return worst
    }

    /// `text` (a part of a link) with its secrets as `<redacted>`.
    static func redacted(_ text: String) -> String { LinkRedactor.redact(text) }

    /// The JSON form, each part that can hold a secret through `shown` (the redactor, or nothing with `--reveal`).
    /// (A link with userinfo is refused, so username and password are always empty.)
    static func json(_ link: LinkURL, input: String, _ shown: (String) -> String) -> String {
        JSONValue.object([
            ("input", .string(shown(input))), ("href", .string(shown(link.href))), ("protocol", .string(link.protocol)),
            ("username", .string(link.username)), ("password", .string(link.password)),
            ("hostname", .string(link.hostname)), ("port", .string(link.portText)),
            ("pathname", .string(shown(link.pathname))), ("search", .string(shown(link.search))),
            ("hash", .string(shown(link.hash))),
        ]).serialized
    }

    /// The human form: the serialised link, then each non-empty part on its own line, each through `shown`.
    static func text(_ link: LinkURL, _ shown: (String) -> String) -> String {
        let parts = [
            ("protocol", link.protocol), ("hostname", link.hostname), ("port", link.portText),
            ("pathname", shown(link.pathname)), ("search", shown(link.search)), ("hash", shown(link.hash)),
        ]
        var text = shown(link.href) + "\n"
        for (name, value) in parts where !value.isEmpty {
            text += "  " + name + ":" + String(repeating: " ", count: 10 - name.count) + value + "\n"
        }
        return text
    }
}

extension RouteError {
    /// The error object of `--json` output: kind, reason, part and message.
    var json: JSONValue {
        switch self {
        case .refused(let refusal):
            .object([
                ("kind", .string("invalid")), ("reason", .string(refusal.reason.rawValue)),
                ("part", .string(refusal.part.rawValue)), ("message", .string(refusal.message)),
            ])
        case .unmatched(let explanation):
            .object([
                ("kind", .string("unmatched")), ("reason", .string("no_route")), ("part", .string("input")),
                ("message", .string(explanation.description)),
            ])
        case .invalidPattern:
            .object([
                ("kind", .string("invalid")), ("reason", .string("bad_value")), ("part", .string("input")),
                ("message", .string(description)),
            ])
        }
    }
}
