package import FoundationEssentials
import LinkdSystem

/// Finds and reads the `apps.d` folders: `$XDG_CONFIG_HOME/linkd`, `/etc/linkd`,
/// `/usr/share/linkd`, in that order; for a file name in several, the first wins.
///
/// The apps are in folder order, then by file name within a folder: the user's folder comes first, so a user's app
/// wins a link it claims against every system app, whatever their file names. A folder or file is read only when it
/// is a ``TrustedPath``.
package struct ConfigLoader: Sendable {
    /// What was loaded: apps in folder, then file-name order, and every problem found.
    package struct Result: Sendable {
        /// The apps that loaded, in folder, then file-name order, each without the links it could not load.
        package var apps: [AppConfig]
        /// Every problem: the folders' first, then file by file in the apps' order, and in each file by line and
        /// column.
        package var errors: [ConfigError]
    }

    /// The `apps.d` folders, first first.
    package var directories: [URL]
    /// Where the programs of `exec` actions are looked up.
    package var programs: ProgramSearch
    /// The actions a link may name.
    package var actions: ActionKinds
    /// The kinds of backend an app may name.
    package var backends: BackendKinds

    /// Loads from `directories` the links that name one of `actions`, and the backends of one of `backends`, looking
    /// programs up with `programs`.
    package init(
        directories: [URL],
        programs: ProgramSearch = .installed(),
        actions: ActionKinds,
        backends: BackendKinds = .linkd
    ) {
        self.directories = directories
        self.programs = programs
        self.actions = actions
        self.backends = backends
    }

    /// The installed folders for `environment`: `$XDG_CONFIG_HOME/linkd/apps.d`, `/etc/linkd/apps.d`,
    /// `/usr/share/linkd/apps.d`; programs are looked up under its `HOME`.
    package static func installed(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        actions: ActionKinds
    ) -> ConfigLoader {
        let configHome = XDGDirectories(environment: environment).configHome
        return ConfigLoader(
            directories: [configHome + "/linkd/apps.d", "/etc/linkd/apps.d", "/usr/share/linkd/apps.d"].map {
                URL(fileURLWithPath: $0)
            },
            programs: .installed(environment: environment),
            actions: actions
        )
    }

    /// Reads every `*.json` file; a broken file is reported and skipped, never stopping the others.
    ///
    /// A file that cannot be read (a folder, a symlink loop, a file over ``sizeLimit``, no permission) or is not
    /// trusted (``TrustedPath``) is a problem at its line 1, column 1; so is a folder that exists and cannot be listed
    /// or is not trusted, and then none of its files is read (nor hides a file of the same name in a later folder).
    /// Two apps claiming the same link are a problem of the later one, whose claim still loads but loses to the
    /// earlier one.
    package func load() -> Result {
        var files: [URL] = []
        var names: Set<String> = []
        var errors: [ConfigError] = []
        for directory in directories {
            let listed: [String]
            do {
                listed = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            } catch {
                if FileManager.default.fileExists(atPath: directory.path) {
                    errors.append(ConfigError(file: directory.path, path: "$", problem: "the folder cannot be read"))
                }
                continue
            }
            do throws(TrustedPath.Failure) {
                _ = try TrustedPath(checking: directory.path)
            } catch {
                errors.append(ConfigError(file: directory.path, path: "$", problem: "not trusted: \(error)"))
                continue
            }
            for name in listed.sorted() where name.hasSuffix(".json") && !names.contains(name) {
                names.insert(name)
                files.append(directory.appendingPathComponent(name))
            }
        }
        var apps: [AppConfig] = []
        var fileOrder: [String: Int] = [:]
        for (index, url) in files.enumerated() {
            fileOrder[url.path] = index
            let bytes: [UInt8]
            switch Self.contents(of: url.path) {
            case .success(let read): bytes = read
            case .failure(let error):
                errors.append(error)
                continue
            }
            var decoder = AppConfigDecoder(file: url.path, programs: programs, actions: actions, backends: backends)
            if let app = decoder.decode(bytes) { apps.append(app) }
            errors += decoder.errors
        }
        errors += Self.overlaps(in: apps)
        // Folders first, then file by file; the sort is stable, so problems at one position keep their order.
        let sorted = errors.enumerated().sorted { left, right in
            let (a, b) = (fileOrder[left.element.file] ?? -1, fileOrder[right.element.file] ?? -1)
            return (a, left.element.position.line, left.element.position.column, left.offset)
                < (b, right.element.position.line, right.element.position.column, right.offset)
        }
        return Result(apps: apps, errors: sorted.map(\.element))
    }
}
