import LinkdFormats
import LinkdSession

extension FuzzTarget {
    /// The readers of the GoTrue and App Services answers on any body: an error body reads as an error whose code,
    /// message and reasons are bounded and safe to show; a 2xx body reads as a session or a user, or is refused.
    ///
    /// An input is two bytes of HTTP status (100–599, big-endian modulo 500), one byte of header choices (bit 0:
    /// an `x-sb-error-code` header, bit 1: a JSON `Content-Type`), then the body.
    package static let backends = FuzzTarget("backends") { bytes in
        guard bytes.count >= 3 else { return }
        let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
        let body = UnsafeBufferPointer(rebasing: bytes[3...])
        let header = bytes[2] & 1 != 0 ? "weak_password" : nil
        let contentType = bytes[2] & 2 != 0 ? "application/json; charset=utf-8" : "text/html"
        checkShown(GoTrueErrorBody.decode(status: status, errorCodeHeader: header, body: body), status: status)
        checkShown(AppServicesErrorBody.decode(status: status, contentType: contentType, body: body), status: status)
        guard let object = try? JSONValue.parse(body) else { return }
        if let session = try? GoTrueSession(object) {
            require(session.accessToken.description == Secret.redacted, "a session's token prints")
        }
        _ = try? GoTrueUser(object)
    }

    private static func checkShown(_ error: BackendError, status: Int) {
        require(error.status == status, "an error with another status")
        require(error.code.count <= 64 && error.message.count <= 300, "an error's code or message is too long")
        require(error.reasons.allSatisfy { $0.count <= 32 }, "an error's reason is too long")
        for text in [error.code, error.message, error.description] + error.reasons {
            require(text.unicodeScalars.allSatisfy(isShowable), "an error shows a control or format character")
        }
    }

    private static func isShowable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .control, .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }
}
