import LinkdFormats

/// What a fetch of an app's association files trusts beyond the system's CAs and a direct connection: the app's own
/// `web.caFile` or `web.proxy`. A file fetched so proves only what that app's own settings let it prove, so it
/// verifies that app alone: it is kept apart from the host's shared file, under a key of the app and both settings,
/// and no other app (nor the same app with other settings) is judged by it.
package struct AssociationTrust: Sendable, Hashable {
    /// The app whose web section names the settings.
    package let app: String
    /// Its `web.caFile`.
    package let caFile: String?
    /// Its `web.proxy`.
    package let proxy: String?

    /// The trust of `app`'s fetches; `nil` when it names neither a CA file nor a proxy (the system's trust, shared by
    /// every app).
    package init?(app: String, caFile: String?, proxy: String?) {
        guard caFile != nil || proxy != nil else { return nil }
        self.app = app
        self.caFile = caFile
        self.proxy = proxy
    }

    /// 16 hex digits of the SHA-256 of the app, the CA file and the proxy: the cache folder's suffix.
    var key: String {
        let text = [app, caFile ?? "", proxy ?? ""].joined(separator: "\u{0}")
        return String(Hex.lowercase(SHA256.hash(Array(text.utf8))).prefix(16))
    }
}
