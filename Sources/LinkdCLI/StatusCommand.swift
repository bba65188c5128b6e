import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdFormats
import LinkdWire

/// `linkd status [--json]`.
struct StatusCommand: Command {
    static let name = "status"
    static let abstract = "Show which schemes open in linkd, whether the daemon can be reached, and the apps loaded."
    static let synopsis = Synopsis([.optional("--json")])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Problems in the apps.d files are counted; 'linkd check' lists them. For web links: whether they come to
        linkd ('linkd register --web'), the browser that opens the others, and for each host an app's web section
        claims whether its association file lists the app (verified, from a file over a day old, not listed, or
        not fetched and why). The apps subscribed on the session bus, and how each proved it is the app (its key,
        or its Flatpak sandbox), when a daemon serves io.linkd.Linkd1 (status never starts one).

        EXIT STATUS:
          0 every scheme linkd or an app claims opens in linkd, and the daemon can be reached (it listens,
          or systemd starts it), and no browser took web links back from linkd; 1 otherwise.

        """

    static let options: [CommandOption] = [
        .flag(
            "--json",
            "Print one JSON object: schemes and the handler GIO resolves for each, the socket, the systemd "
                + "units, the apps, the problems found, web links (\"web\") and the subscribed apps (\"subscribed\")."
        )
    ]

    /// Whether to print JSON.
    var json: Bool

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        json = scanner.flags.contains("--json")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let status = DesktopStatus.gather(environment: environment, actions: .linkd)
        let web = WebStatus.gather(
            environment: environment,
            apps: ConfigLoader.installed(environment: environment, actions: .linkd).load().apps
        )
        let isHealthy = status.isHealthy && !web.isTakenBack
        let subscribed = await SubscribedApps.gather()
        if json, case .object(let members) = status.json {
            let all =
                members.map { $0.0 == "ok" ? ("ok", JSONValue.bool(isHealthy)) : $0 } + [("web", web.json)]
                + [("subscribed", subscribed.json)]
            console.write(JSONValue.object(all).serialized + "\n")
        } else {
            for line in status.lines + web.lines + [subscribed.line] { console.write(line + "\n") }
        }
        return isHealthy ? .success : .unmatched  // 1: not every link would reach linkd
    }
}
