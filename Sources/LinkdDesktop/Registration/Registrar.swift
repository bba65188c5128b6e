import FoundationEssentials
package import LinkdConfig
import LinkdRouting

/// Makes linkd the handler of URL schemes: its desktop file, the defaults in a `mimeapps.list`, the defaults it
/// replaced (remembered, so that `unregister` puts them back), and `update-desktop-database`.
///
/// For one user (``init(environment:)``) the files are `$XDG_DATA_HOME/applications/linkd.desktop`,
/// `$XDG_CONFIG_HOME/mimeapps.list` and `$XDG_STATE_HOME/linkd/replaced-defaults.json`; for every user
/// (``system(root:)``) they are under `/usr/share/applications` and `/var/lib/linkd`.
package struct Registrar: Sendable {
    /// A scheme linkd will not register, or a file it cannot handle.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        /// Whether a file could not be written for want of permission (`EACCES`, `EPERM`, `EROFS`).
        package var isPermissionDenied = false
    }

    /// Schemes that belong to browsers and mail clients: claiming them would take every web link.
    static let webSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// The folder of desktop files linkd's entry goes in.
    package let applications: String
    /// linkd's desktop file, `<applications>/linkd.desktop`.
    package let desktopFile: String
    /// The `mimeapps.list` whose `[Default Applications]` linkd sets.
    package let mimeApps: String
    /// The file that remembers the defaults linkd replaced (``ReplacedDefaults``).
    package let replacedDefaults: String
    /// The `apps.d` folders whose schemes ``claimedSchemes()`` lists.
    package let config: ConfigLoader

    /// The per-user paths for `environment`; the apps.d links name `actions`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment, actions: ActionKinds) {
        let directories = XDGDirectories(environment: environment)
        self.init(
            applications: directories.dataHome + "/applications",
            mimeApps: directories.configHome + "/mimeapps.list",
            replacedDefaults: directories.linkdState + "/replaced-defaults.json",
            config: ConfigLoader.installed(environment: environment, actions: actions)
        )
    }

    /// The paths for every user, under `root` (`/` but in tests): `/usr/share/applications/linkd.desktop`,
    /// `/usr/share/applications/mimeapps.list`, `/var/lib/linkd/replaced-defaults.json`, and the schemes of
    /// `/etc/linkd/apps.d` and `/usr/share/linkd/apps.d`.
    package static func system(root: String = "/", actions: ActionKinds) -> Registrar {
        let prefix = root.hasSuffix("/") ? String(root.dropLast()) : root
        return Registrar(
            applications: prefix + "/usr/share/applications",
            mimeApps: prefix + "/usr/share/applications/mimeapps.list",
            replacedDefaults: prefix + "/var/lib/linkd/replaced-defaults.json",
            config: ConfigLoader(
                directories: ["/etc/linkd/apps.d", "/usr/share/linkd/apps.d"].map { URL(fileURLWithPath: prefix + $0) },
                actions: actions
            )
        )
    }

    private init(applications: String, mimeApps: String, replacedDefaults: String, config: ConfigLoader) {
        self.applications = applications
        self.desktopFile = applications + "/" + DesktopEntry.id
        self.mimeApps = mimeApps
        self.replacedDefaults = replacedDefaults
        self.config = config
    }

    /// `scheme` in lower case, or why linkd never registers it.
    package static func validate(_ scheme: String) throws(Problem) -> String {
        let lowered = scheme.lowercased()
        guard let first = lowered.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            lowered.unicodeScalars.allSatisfy({ $0.isASCII && (InputCheckBytes.isSchemeCharacter($0)) })
        else {
            throw Problem(
                description: "'\(scheme)' is not a valid URL scheme (a letter, then letters, digits, '+', '-' or '.')"
            )
        }
        if webSchemes.contains(lowered) {
            throw Problem(
                description: "linkd never registers for '\(lowered)': it would take every such link from the browser"
            )
        }
        if LinkURL.blockedSchemes.contains(lowered) {
            throw Problem(description: "linkd never registers for '\(lowered)': it is never a link")
        }
        return lowered
    }

    /// The schemes the apps of `apps` claim that linkd may register (never `https`), sorted.
    package static func claimedSchemes(of apps: [AppConfig]) -> [String] {
        Set(apps.flatMap { $0.links.map(\.match.scheme) }).filter { (try? validate($0)) != nil }.sorted()
    }

    /// The schemes the apps in ``config`` claim that linkd may register, sorted.
    package func claimedSchemes() -> [String] {
        Self.claimedSchemes(of: config.load().apps)
    }
}

/// Scheme characters, as the strict parser reads them.
enum InputCheckBytes {
    static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-"
            || scalar == "."
    }
}
