package import LinkdConfig
import LinkdFormats
import LinkdRouting
package import LinkdSession

extension BackendConfig {
    /// The session layer's client for this backend, on the live transport (with the backend's `caFile`).
    package func makeClient() -> ResetBackend {
        let transport = CurlTransport(caFile: caFile)
        switch kind {
        case .supabase(let apiKey):
            return .supabase(GoTrueClient(url: url.href, apiKey: apiKey.revealed(), transport: transport))
        case .appServices(let appID):
            return .appServices(AppServicesClient(url: url.href, appID: appID, transport: transport))
        }
    }
}
