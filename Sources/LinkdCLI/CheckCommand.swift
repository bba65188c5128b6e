import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWeb
import LinkdWire

/// `linkd check [--json] [--config DIR]`: every problem in the apps.d configuration, each where it is.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Check the apps.d configuration and print each problem with its file, line and column."
    static let synopsis = Synopsis([.optional("--json"), .optional("--config")])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Without --config, the installed apps (apps.d under $XDG_CONFIG_HOME/linkd, /etc/linkd, /usr/share/linkd)
        are checked. Each problem is printed as FILE:LINE:COLUMN: JSON-PATH: what is wrong. A clean configuration
        prints 'ok: N apps, M links' (nothing with --json). The programs of exec actions are looked up in
        $HOME/.local/bin, /usr/local/bin, /usr/bin and /bin. For an app with a web section, each https host its
        links claim must list the app in its association files, read from $XDG_CACHE_HOME/linkd/associations
        and fetched first when they are due. An app whose forward links start it ({"start": "desktop"}) must
        have a desktop entry that can: D-Bus-activatable, or an Exec whose program is there.

        EXIT STATUS:
          0 no problems, 65 some problem (or the --config folder cannot be read), 64 usage error.

        """

    static let options: [CommandOption] = [
        .flag("--json", "Print one JSON object per problem: file, line, column, path and problem."),
        .value("--config", "<dir>", "Check only the apps in this apps.d folder.", values: .folders),
    ]

    var json: Bool
    var configDirectory: String?

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        json = scanner.flags.contains("--json")
        configDirectory = scanner.values["--config"]
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let loader: ConfigLoader
        if let configDirectory {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: configDirectory, isDirectory: &isDirectory), isDirectory else {
                throw .failed("'\(DisplayText.sanitize(configDirectory))' is not a folder", exitCode: .invalid)
            }
            loader = ConfigLoader(directories: [URL(fileURLWithPath: configDirectory)], actions: .linkd)
        } else {
            loader = .installed(actions: .linkd)
        }
        var loaded = loader.load()
        let cache = AssociationCache(folder: XDGDirectories().cacheHome + "/linkd/associations")
        loaded.errors += await WebCheck.problems(of: loaded.apps, cache: cache)
        loaded.errors += AppStartCheck.problems(of: loaded.apps, environment: ProcessInfo.processInfo.environment)
        for error in loaded.errors {
            console.write((json ? Self.json(error).serialized : DisplayText.sanitize(error.description)) + "\n")
        }
        let warnings = loaded.errors.filter(\.isWarning).count
        guard loaded.errors.count == warnings else { return .invalid }
        if !json {
            let links = loaded.apps.reduce(0) { $0 + $1.links.count }
            let warned = warnings == 0 ? "" : " (\(Self.count(warnings, "warning")))"
            console.write("ok: \(Self.count(loaded.apps.count, "app")), \(Self.count(links, "link"))\(warned)\n")
        }
        return .success
    }

    /// `{"file": …, "line": …, "column": …, "path": …, "problem": …}`, with `"warning": true` for a warning.
    static func json(_ error: ConfigError) -> JSONValue {
        .object(
            [
                ("file", .string(error.file)), ("line", .number(Int64(error.line))),
                ("column", .number(Int64(error.column))), ("path", .string(error.path)),
                ("problem", .string(error.problem)),
            ] + (error.isWarning ? [("warning", .bool(true))] : [])
        )
    }

    /// `1 app`, `2 apps`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
