import LinkdConfig
import LinkdSystem

/// How a caller on the session bus proved it is an app: a host app by the app's key (the file linkd writes for it,
/// `$XDG_RUNTIME_DIR/linkd/keys/APP`), a Flatpak app by its sandbox's app id, read as xdg-desktop-portal reads it.
enum AppProof: Sendable, Equatable {
    case key
    case sandbox(appID: String)

    /// What the log and `linkd status` say of it.
    var description: String {
        switch self {
        case .key: "proved by its key"
        case .sandbox(let appID): "proved by its Flatpak sandbox \(appID)"
        }
    }

    /// The `LINKD_PROOF` field of its log lines.
    var field: String {
        switch self {
        case .key: "key"
        case .sandbox: "flatpak"
        }
    }

    /// Whether the caller of `call` is `app`: a process of this user, in `app`'s Flatpak sandbox, or with `app`'s key.
    /// A sandboxed caller is its sandbox's app and no other, whatever key it sends (the daemon in the shipped unit's
    /// user namespace finds the sandbox through the caller's mount table). When the caller's sandbox cannot be told,
    /// only the key proves it: a sandbox that was not given the key file has no way to it.
    static func of(_ call: BusCall, app: String, key: String, service: LinkService) async -> Result<AppProof, BusError>
    {
        guard await service.resolver.apps.contains(where: { $0.app == app }) else {
            return .failure(BusError(name: "io.linkd.Linkd1.Error.UnknownApp", message: "no apps.d file names \(app)"))
        }
        guard call.userID == CurrentUser.id, let processID = call.processID else {
            return .failure(notProven("the caller is not a process of this user"))
        }
        switch ProcessSandbox.of(processID: processID) {
        case .flatpak(let appID) where appID == app: return .success(.sandbox(appID: appID))
        case .flatpak(let appID): return .failure(notProven("a Flatpak sandbox of \(appID) cannot act for \(app)"))
        case .host, .unknown:
            guard !key.isEmpty else {
                return .failure(
                    notProven("send \(app)'s key, the contents of \(service.subscriberKeys.path(for: app))")
                )
            }
            guard service.subscriberKeys.isValid(key, for: app) else {
                return .failure(notProven("that is not \(app)'s key"))
            }
            return .success(.key)
        }
    }

    private static func notProven(_ message: String) -> BusError {
        BusError(name: "io.linkd.Linkd1.Error.NotProven", message: message)
    }
}
