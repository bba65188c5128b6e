import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWire

/// The answer to an emailed link whose backend said, in its place, that it expired.
enum LinkExpiry {
    /// An error redirect in place of a reset or sign-in: the backend sends one when the emailed link has expired or
    /// was used (`otp_expired`), so that is what the person is told; `nil` for any other route.
    static func failure(_ route: RoutedLink) -> WireProtocol.Failure? {
        let code: String?
        switch route.auth {
        case .supabaseError(let error): code = error.errorCode ?? error.error
        case .oauthError(let error): code = error.error
        case .firebaseAction, .appleCallback, .supabaseRecovery, .supabaseSession, .oauthCallback, .supabasePKCE,
            .supabaseOTP, .appServicesConfirm, .appServicesReset, nil:
            return nil
        }
        // The code is the link's own text: shown only when it is a plain word.
        let isWord = code.map {
            !$0.isEmpty && $0.count <= 40 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        return WireProtocol.Failure(
            kind: .refused,
            reason: WireProtocol.Reason(ResetFailureKind.linkExpiredOrUsed),
            message: "this link has expired or was already used; request a new email"
                + (isWord == true ? " (\(code ?? ""))" : "")
        )
    }
}
