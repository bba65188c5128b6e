public import FoundationEssentials

/// Finds and reads the `apps.d` folders (DESIGN.md §6): `$XDG_CONFIG_HOME/linkd`, `/etc/linkd`,
/// `/usr/share/linkd`, in that order; for a file name in several, the first wins.
public struct ConfigLoader: Sendable {
    /// What was loaded: apps in file-name order, and every problem found.
    public struct Result: Sendable {
        public var apps: [AppConfig]
        public var errors: [ConfigError]
    }

    /// The `apps.d` folders, first first.
    public var directories: [URL]

    /// Loads from `directories`.
    public init(directories: [URL]) {
        self.directories = directories
    }

    /// The installed folders for `environment` (`XDG_CONFIG_HOME`, else `$HOME/.config`).
    public static func installed(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigLoader {
        var directories: [URL] = []
        if let configHome = environment["XDG_CONFIG_HOME"].flatMap({ $0.hasPrefix("/") ? $0 : nil }) {
            directories.append(URL(fileURLWithPath: configHome).appendingPathComponent("linkd/apps.d"))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(URL(fileURLWithPath: home).appendingPathComponent(".config/linkd/apps.d"))
        }
        directories.append(URL(fileURLWithPath: "/etc/linkd/apps.d"))
        directories.append(URL(fileURLWithPath: "/usr/share/linkd/apps.d"))
        return ConfigLoader(directories: directories)
    }

    /// Reads every `*.json` file; a broken file is reported and skipped, never stopping the others.
    public func load() -> Result {
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
