/// linkd's desktop entry for web links, written by `linkd register --web` and removed by `unregister --web`:
/// `Exec=<linkd> open --web %u` for `http` and `https`, hidden, and `X-GIO-NoFuse=true` so that GIO passes the URL
/// as it is rather than a FUSE path. `linkd.desktop`, the schemes' entry, never lists http or https.
package enum WebDesktopEntry {
    /// The desktop file id.
    package static let id = "linkd-web.desktop"
    /// The schemes it takes.
    package static let schemes = ["http", "https"]

    /// The file's text for `executable`.
    package static func text(executable: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=linkd (web links)
        Comment=Open an app's web links in the app, and every other web link in the browser
        Exec=\(DesktopEntry.quoteIfNeeded(executable)) open --web %u
        Terminal=false
        NoDisplay=true
        X-GIO-NoFuse=true
        MimeType=x-scheme-handler/http;x-scheme-handler/https;

        """
    }
}
