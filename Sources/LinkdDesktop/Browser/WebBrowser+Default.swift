import LinkdConfig
import LinkdSystem

extension WebBrowser {
    /// The `mimeapps.list` files, in the order the MIME Apps specification reads them: for the config folders and
    /// then the data folders' `applications`, the desktop-specific lists (`gnome-mimeapps.list`, for each desktop of
    /// `XDG_CURRENT_DESKTOP`) before the plain one.
    static func mimeAppsLists(_ environment: [String: String]) -> [String] {
        let directories = XDGDirectories(environment: environment)
        func folders(_ name: String, _ fallback: [String]) -> [String] {
            let listed = (environment[name] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return listed.isEmpty ? fallback : listed
        }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        let configFolders = [directories.configHome] + folders("XDG_CONFIG_DIRS", ["/etc/xdg"])
        let dataFolders =
            [directories.dataHome] + folders("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])
        let all = configFolders + dataFolders.map { $0 + "/applications" }
        return all.flatMap { folder in desktops.map { "\(folder)/\($0)-mimeapps.list" } + ["\(folder)/mimeapps.list"] }
    }

    /// The desktop ids the lists name as the default for `x-scheme-handler/https`, in the order they count, each with
    /// the list that names it.
    static func listedDefaults(_ environment: [String: String]) -> [(id: String, list: String)] {
        mimeAppsLists(environment).flatMap { path -> [(id: String, list: String)] in
            guard let bytes = FileSystem.contents(of: path, limit: 1 << 20),
                let value = MimeAppsList(String(decoding: bytes, as: UTF8.self))
                    .value("x-scheme-handler/https", in: MimeAppsList.defaults)
            else { return [] }
            return MimeAppsList.desktopIDs(in: value).map { ($0, path) }
        }
    }

    /// The browser that opens web links now, as GIO picks it, linkd's own entries and other link routers left out: the
    /// first usable default a list names, else the user's own entry that takes https links (which GIO makes the
    /// default when no list names one), else the first usable of ``known``; `nil` when there is none.
    package static func current(environment: [String: String]) -> WebBrowser? {
        for (id, _) in listedDefaults(environment) {
            if let browser = find(id, environment: environment) { return browser }
        }
        let userFolder = XDGDirectories(environment: environment).dataHome + "/applications"
        for name in FileSystem.names(in: userFolder).sorted() where name.hasSuffix(".desktop") {
            guard let bytes = FileSystem.contents(of: userFolder + "/" + name, limit: 256 * 1_024) else { continue }
            let types = DesktopEntryFile(String(decoding: bytes, as: UTF8.self))["MimeType"] ?? ""
            if types.split(separator: ";").contains("x-scheme-handler/https"),
                let browser = find(name, environment: environment)
            {
                return browser
            }
        }
        return choose(recorded: nil, environment: environment)
    }

    /// The desktop id the first list that names one gives `x-scheme-handler/https`, as it is (linkd's own included):
    /// who has web links now.
    package static func listedDefault(environment: [String: String]) -> String? {
        listedDefaults(environment).first?.id
    }

    /// The list that gives `x-scheme-handler/https` its default (the first that names one), `nil` when none does.
    package static func listGivingDefault(environment: [String: String]) -> String? {
        listedDefaults(environment).first?.list
    }
}
