import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdWire

/// `linkd route [--json] [--reveal] [--web] [--config DIR] URL...`: parse and route locally, with no daemon and no
/// backend; with `--web`, say where a click of each link would go instead.
struct RouteCommand: Command {
    static let name = "route"
    static let abstract = "Parse and route links locally; print each route, or why there is none."
    static let synopsis = Synopsis([
        .optional("--json"), .optional("--reveal"), .optional("--web"), .optional("--config"), .arguments(.links),
    ])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        ARGUMENTS:
          <url>                   A link to route; '-' reads one link per line from standard input.

        \(CommandOption.helpBlock(options))

        Without --config, the installed apps (apps.d under $XDG_CONFIG_HOME/linkd, /etc/linkd, /usr/share/linkd)
        are tried first, then the built-in formats. A link an app claims shows the action linkd would run for it;
        the emailed link of an app's own backend (its redirect_to one of the app's links) shows that app and the
        action of the link it leads to. Problems in the configuration are counted on standard error; 'linkd check'
        lists them.

        With --web, each link is decided as a click of it decides (linkd open --web, from the apps and the site
        association files fetched earlier, never the network): the app it opens, and which host file and rule
        admit it, or why it opens in the browser.

        EXIT STATUS:
          0 every link routed, 1 some link matched no route, 65 some link was refused, 64 usage error.
          With --web: 0 every link opens an app, 1 some link opens in the browser.

        """

    static let options: [CommandOption] = [
        .flag("--json", "Print one JSON object per link: route, app, action and fields, or the error."),
        .flag("--reveal", "Print secrets (tokens, codes, keys) and the whole input instead of '<redacted>'."),
        .flag("--web", "Say where a click of each link goes: the app its site admits it for, or the browser, and why."),
        .value(
            "--config",
            "<dir>",
            "Use only the apps in this apps.d folder; a link none of them claims is unmatched.",
            values: .folders
        ),
    ]

    var json: Bool
    var reveal: Bool
    var web: Bool
    var configDirectory: String?
    var urls: [[UInt8]]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        urls = try scanner.links(command: Self.name)
        json = scanner.flags.contains("--json")
        reveal = scanner.flags.contains("--reveal")
        web = scanner.flags.contains("--web")
        configDirectory = scanner.values["--config"]
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let loader =
            configDirectory.map { ConfigLoader(directories: [URL(fileURLWithPath: $0)], actions: .linkd) }
            ?? ConfigLoader.installed(actions: .linkd)
        let loaded = loader.load()
        if !loaded.errors.isEmpty {
            let count = CheckCommand.count(loaded.errors.count, "problem")
            let check = configDirectory.map { "linkd check --config \(DisplayText.sanitize($0))" } ?? "linkd check"
            console.writeError("Warning: the configuration has \(count); run '\(check)'\n")
        }
        if web { return routeWeb(loaded.apps, console) }
        let resolver = LinkResolver(apps: loaded.apps, fallbackToBuiltIns: configDirectory == nil)
        let output = RouteOutput(reveal: reveal, unmatchedReason: configDirectory == nil ? "no_route" : "no_app")
        var worst = ExitCode.success
        for (number, bytes) in LinkInput(arguments: urls, console: console).enumerated() {
            let input = String(decoding: bytes, as: UTF8.self)
            // A link in a mail scanner's wrapper is routed as the link it wraps, and the wrapper named.
            let parsed = try? LinkURL(parsing: bytes)
            let wrapper = parsed.flatMap(LinkWrapper.of)
            let result = Result { () throws(RouteError) in
                let link: LinkURL
                if let parsed { link = parsed } else { link = try LinkURL(parsing: bytes) }
                return try resolver.resolve(LinkWrapper.unwrap(link) ?? link)
            }
            // An app's own backend's emailed link is that app's, as `linkd open` takes it, whatever else reads it.
            if let link = parsed.map({ LinkWrapper.unwrap($0) ?? $0 }), (try? result.get())?.app == nil,
                let emailed = resolver.emailed(link)
            {
                let routed = try? result.get()
                console.write(
                    json
                        ? output.json(emailed, routed: routed, input: input, wrapper: wrapper)
                        : output.text(emailed, routed: routed, input: input, wrapper: wrapper)
                )
                continue
            }
            switch result {
            case .success(let resolution):
                console.write(
                    json
                        ? output.json(resolution, input: input, wrapper: wrapper)
                        : output.text(resolution, input: input, wrapper: wrapper)
                )
            case .failure(let error):
                if case .unmatched = error { worst = max(worst, .unmatched) } else { worst = max(worst, .invalid) }
                if json {
                    console.write(output.json(error, input: input))
                } else {
                    console.writeError(LinkFailureLine.text(link: number + 1, error))
                }
            }
        }
        return worst
    }
}
