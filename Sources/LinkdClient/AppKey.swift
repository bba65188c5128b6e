import LinkdSystem

/// The key linkd keeps for an app, which proves to it that a host process is that app.
enum AppKey {
    /// The contents of `$XDG_RUNTIME_DIR/linkd/keys/APP` without its newline; empty when there is none to read
    /// (a Flatpak sandbox, which proves the app by itself).
    static func read(for app: String) -> String {
        guard let runtime = CurrentProcess.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            !app.contains("/"), let bytes = FileSystem.contents(of: runtime + "/linkd/keys/" + app, limit: 256)
        else { return "" }
        return String(decoding: bytes, as: UTF8.self).filter { !$0.isNewline }
    }
}
