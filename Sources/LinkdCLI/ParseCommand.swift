import LinkdFormats
import LinkdRouting

/// `linkd parse [--json] URL...`: the strict parse of each link, as the WHATWG URL API would show it.
struct ParseCommand: Command {
    static let name = "parse"
    static let abstract = "Parse links strictly and print their parts, or why each is refused."
    static let usage = "linkd parse [--json] <url> ..."
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <url>                   A link to parse; '-' reads one link per line from standard input.

        OPTIONS:
          --json                  Print one JSON object per link: the WHATWG URL API fields, or the error.
          -h, --help              Show help information.

        EXIT STATUS:
          0 every link parsed, 65 some link was refused, 64 usage error.

        """

    static let options: [CommandOption] = [.flag("--json")]

    var json: Bool
    var urls: [[UInt8]]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        urls = try scanner.links(command: Self.name)
        json = scanner.flags.contains("--json")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        var worst = ExitCode.success
        for (number, bytes) in LinkInput(arguments: urls, console: console).enumerated() {
            let input = String(decoding: bytes, as: UTF8.self)
            do {
                let link = try LinkURL(parsing: bytes)
                console.write(json ? Self.json(link, input: input) + "\n" : Self.text(link))
            } catch {
                worst = max(worst, .invalid)
                if json {
                    console.write(
                        JSONValue.object([("input", .string(LinkRedactor.redact(input))), ("error", error.json)])
                            .serialized + "\n"
                    )
                } else {
                    console.writeError("Error: link \(number + 1): \(error.renderedWithReason)\n")
                }
            }
        }
        return worst
    }

    static func json(_ link: LinkURL, input: String) -> String {
        JSONValue.object([
            ("input", .string(input)), ("href", .string(link.href)), ("protocol", .string(link.protocol)),
            ("username", .string(link.username)), ("password", .string(link.password)),
            ("hostname", .string(link.hostname)), ("port", .string(link.portText)),
            ("pathname", .string(link.pathname)), ("search", .string(link.search)), ("hash", .string(link.hash)),
        ]).serialized
    }

    /// The human form: the serialised link, then each non-empty part on its own line.
    static func text(_ link: LinkURL) -> String {
        let parts = [
            ("protocol", link.protocol), ("hostname", link.hostname), ("port", link.portText),
            ("pathname", link.pathname), ("search", link.search), ("hash", link.hash),
        ]
        var text = link.href + "\n"
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

    /// The message followed by the reason and part, for people who will search for the reason.
    var renderedWithReason: String {
        guard let refusal else { return description }
        return "\(refusal.message) [\(refusal.reason.rawValue) in \(refusal.part.rawValue)]"
    }
}
