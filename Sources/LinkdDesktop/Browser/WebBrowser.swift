import LinkdConfig
import LinkdSystem

/// A browser's desktop entry that web links can be passed on to, found and checked as a launcher does: in the XDG
/// data folders (`$XDG_DATA_HOME/applications` first, then each of `$XDG_DATA_DIRS`), not hidden, its `TryExec` and
/// `Exec` programs there, its `Exec` one that opens a URL (or the entry D-Bus-activatable), not run in a terminal,
/// and never linkd itself or another link router, which would hand the link back.
package struct WebBrowser: Sendable, Equatable {
    /// The desktop file id (`firefox-esr.desktop`).
    package let id: String
    /// The entry's file.
    package let file: String
    /// How it opens a URL.
    package let launch: Launch

    /// How a browser is started with a URL.
    package enum Launch: Sendable, Equatable {
        /// Its `Exec=` command, expanded for the URL.
        case command(DesktopExec, name: String, icon: String?)
        /// `org.freedesktop.Application.Open` on its D-Bus name (`DBusActivatable=true`).
        case dbus(appID: String)
    }

    /// Desktop ids of link routers, linkd's own first: a link passed to one of them would come back.
    package static let routers: Set<String> = [
        "linkd.desktop", "linkd-web.desktop", "re.sonny.Junction.desktop", "linkquisition.desktop",
        "software.Browsers.desktop",
    ]

    /// Browsers looked for, in order, when the one linkd replaced is gone.
    package static let known = [
        "firefox-esr.desktop", "firefox.desktop", "org.mozilla.firefox.desktop", "chromium.desktop",
        "org.chromium.Chromium.desktop", "google-chrome.desktop", "com.google.Chrome.desktop",
        "brave-browser.desktop", "com.brave.Browser.desktop", "org.gnome.Epiphany.desktop", "epiphany.desktop",
        "librewolf.desktop", "io.gitlab.librewolf-community.desktop", "vivaldi-stable.desktop",
        "microsoft-edge.desktop", "org.kde.falkon.desktop", "falkon.desktop", "org.qutebrowser.qutebrowser.desktop",
    ]

    /// The browser to pass web links to: `recorded` (the one linkd replaced) when it is still usable, else the first
    /// usable one of ``known``; `nil` when there is none.
    package static func choose(recorded: String?, environment: [String: String]) -> WebBrowser? {
        for id in (recorded.map { [$0] } ?? []) + known {
            if let browser = find(id, environment: environment) { return browser }
        }
        return nil
    }

    /// The folders desktop entries are looked for in, first first.
    static func applicationFolders(_ environment: [String: String]) -> [String] {
        let dataHome = XDGDirectories(environment: environment).dataHome
        let dirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter {
            $0.hasPrefix("/")
        }
        return ([dataHome] + (dirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dirs)).map { $0 + "/applications" }
    }

    /// The entry of desktop id `id`, when it is a usable browser: the first file of that name in the application
    /// folders decides (a user's own entry hides a system one, as it does for a launcher).
    package static func find(_ id: String, environment: [String: String]) -> WebBrowser? {
        guard !routers.contains(id), id.hasSuffix(".desktop"), !id.contains("/") else { return nil }
        for folder in applicationFolders(environment) {
            let path = folder + "/" + id
            guard let bytes = FileSystem.contents(of: path, limit: 256 * 1_024) else { continue }
            return usable(
                id: id,
                file: path,
                entry: DesktopEntryFile(String(decoding: bytes, as: UTF8.self)),
                environment
            )
        }
        return nil
    }

    private static func usable(
        id: String,
        file: String,
        entry: DesktopEntryFile,
        _ environment: [String: String]
    ) -> WebBrowser? {
        guard entry["Type"] == "Application", !entry.flag("Hidden"), !entry.flag("Terminal") else { return nil }
        if let tryExec = entry["TryExec"], !FileSystem.canRun(tryExec, searchPath: environment["PATH"]) { return nil }
        if entry.flag("DBusActivatable") {
            return WebBrowser(id: id, file: file, launch: .dbus(appID: String(id.dropLast(".desktop".count))))
        }
        guard let line = entry["Exec"], let exec = try? DesktopExec(parsing: line) else { return nil }
        let argv = exec.argv(opening: "")
        guard let program = argv.first, FileSystem.canRun(program, searchPath: environment["PATH"]), !isLinkd(program)
        else { return nil }
        return WebBrowser(id: id, file: file, launch: .command(exec, name: entry["Name"] ?? "", icon: entry["Icon"]))
    }

    /// Whether `program` is linkd (its name, or this very program).
    private static func isLinkd(_ program: String) -> Bool {
        program.split(separator: "/").last == "linkd" || program == FileSystem.executablePath
    }
}
