import LinkdConfig
import LinkdFormats
import LinkdWire

/// The installed app a command names with `--app`.
enum InstalledApp {
    /// The app `name` among the installed apps.d files.
    ///
    /// - Throws: a usage failure (64) that lists the apps there are, when none is called `name`.
    static func named(_ name: String) throws(CommandFailure) -> AppConfig {
        let loaded = ConfigLoader.installed(actions: .linkd).load()
        guard let config = loaded.apps.first(where: { $0.app == name }) else {
            let known = loaded.apps.map(\.app).joined(separator: ", ")
            throw .failed(
                "no app '\(DisplayText.sanitize(name))' in apps.d (apps: \(known.isEmpty ? "none" : known))",
                exitCode: .usage
            )
        }
        return config
    }
}
