import FoundationEssentials

/// The XDG Base Directory folders linkd uses, read once from an environment: the one place `XDG_*` and `HOME` are
/// interpreted. A variable that is unset, empty or not absolute falls back to its default under `HOME`, as the
/// specification says.
package struct XDGDirectories: Sendable, Equatable {
    /// `$HOME`, else the account's home folder.
    package var home: String
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    package var configHome: String
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    package var dataHome: String
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    package var stateHome: String
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    package var cacheHome: String
    /// `$XDG_RUNTIME_DIR`; `nil` when it is unset or not absolute (it has no default).
    package var runtimeDirectory: String?

    /// The folders for `environment`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        home = absolute("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        configHome = absolute("XDG_CONFIG_HOME") ?? home + "/.config"
        dataHome = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
        stateHome = absolute("XDG_STATE_HOME") ?? home + "/.local/state"
        cacheHome = absolute("XDG_CACHE_HOME") ?? home + "/.cache"
        runtimeDirectory = absolute("XDG_RUNTIME_DIR")
    }

    /// Where the programs of `exec` actions are looked for: `~/.local/bin:/usr/local/bin:/usr/bin:/bin`, never the
    /// `PATH` of whichever process started linkd.
    package var programSearchPath: String { home + "/.local/bin:/usr/local/bin:/usr/bin:/bin" }

    /// linkd's own state folder, `$XDG_STATE_HOME/linkd` (the log, PKCE verifiers, remembered defaults).
    package var linkdState: String { stateHome + "/linkd" }
}
