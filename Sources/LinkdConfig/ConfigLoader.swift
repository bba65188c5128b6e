package import FoundationEssentials

/// Finds and reads the `apps.d` folders: `$XDG_CONFIG_HOME/linkd`, `/etc/linkd`,
/// `/usr/share/linkd`, in that order; for a file name in several, the first wins.
package struct ConfigLoader: Sendable {
    /// What was loaded: apps in file-name order, and every problem found.
    package struct Result: Sendable {
        package var apps: [AppConfig]
        package var errors: [ConfigError]
    }

    /// The `apps.d` folders, first first.
    package var directories: [URL]

    /// Loads from `directories`.
    package init(directories: [URL]) {
        self.directories = directories
    }

    /// The installed folders for `environment`: `$XDG_CONFIG_HOME/linkd/apps.d`, `/etc/linkd/apps.d`,
    /// `/usr/share/linkd/apps.d`.
    package static func installed(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigLoader {
        let configHome = XDGDirectories(environment: environment).configHome
        return ConfigLoader(
            directories: [configHome + "/linkd/apps.d", "/etc/linkd/apps.d", "/usr/share/linkd/apps.d"].map {
                URL(fileURLWithPath: $0)
            }
        )
    }

    /// Reads every `*.json` file; a broken file is reported and skipped, never stopping the others.
    package func load() -> Result {
        var chosen: [String: URL] = [:]
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasSuffix(".json") && chosen[name] == nil {
                chosen[name] = directory.appendingPathComponent(name)
            }
        }
        var result = Result(apps: [], errors: [])
        for name in chosen.keys.sorted() {
            guard let url = chosen[name] else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                result.errors.append(ConfigError(file: url.path, path: "$", problem: "cannot be read"))
                continue
            }
            var decoder = AppConfigDecoder(file: url.path)
            if let app = decoder.decode(data) { result.apps.append(app) }
            result.errors += decoder.errors
        }
        return result
    }
}
