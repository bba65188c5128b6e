package import LinkdFormats

/// Reads an Atlas App Services error response, `{"error": "…", "error_code": "…", "link": "…"}` (realm-core
/// `check_for_errors`). The `link` (a console URL with group and app ids) is not kept.
package enum AppServicesErrorBody {
    static let linkGone: Set<String> = ["UserpassTokenInvalid", "InvalidSession"]
    static let passwordCodes: Set<String> = ["InvalidPassword"]

    /// The error a response with `status`, its `Content-Type` and `body` stands for. A body that is not JSON (a proxy's
    /// HTML page, say) keeps the status, as realm-core does. The backend's text shows none of `secrets` (what the
    /// request carried).
    package static func decode(
        status: Int,
        contentType: String?,
        body: some Collection<UInt8>,
        redacting secrets: [Secret] = []
    ) -> BackendError {
        let isJSON = contentType?.lowercased().hasPrefix("application/json") ?? false
        let object = isJSON ? (try? JSONValue.parse(body)).flatMap { $0.objectMembers == nil ? nil : $0 } : nil
        let code = object?["error_code"]?.stringValue ?? ""
        let message = object?["error"]?.stringValue ?? ResponseText.fallback(status: status, body: body)
        let kind: BackendError.Kind
        if linkGone.contains(code) {
            kind = .linkExpiredOrUsed
        } else if passwordCodes.contains(code) {
            kind = .passwordRejected
        } else if code == "MaintenanceInProgress" || status >= 500 {
            kind = .temporary
        } else if status == 429 {
            kind = .rateLimited
        } else {
            kind = .refused
        }
        return BackendError(
            kind: kind,
            status: status,
            code: ResponseText.clean(code, limit: 64, redacting: secrets),
            message: ResponseText.clean(message, limit: 300, redacting: secrets)
        )
    }
}
