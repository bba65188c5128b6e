import LinkdFormats
import LinkdSession

extension FuzzTarget {
    /// The readers of a PKCE store's files (a verifier for `linkd reset request`, `linkd login` or Sign in with
    /// Apple) on any bytes: a verifier is read or not, never a crash; one read has an expiry, and is read at a time
    /// exactly when that time is before its expiry, so that storing a verifier never removes as expired one that
    /// would still be read; and a verifier with its expiry, written as the store writes it, reads back as itself.
    package static let pkce = FuzzTarget("pkce") { bytes in
        let contents = Array(bytes)
        let expiry = PKCEStore.expiry(inContents: contents)
        guard let verifier = PKCEStore.verifier(inContents: contents, now: nil) else { return }
        guard let expires = expiry else { fatalError("invariant broken: a verifier read without an expiry") }
        for now in [Int64.min, 0, expires &- 1, expires, expires &+ 1, Int64.max] {
            let isRead = PKCEStore.verifier(inContents: contents, now: now) == verifier
            require(isRead == (now < expires), "a verifier is read at a time not before its expiry, or not before it")
        }
        let written = PKCEStore.contents(verifier, expires: expires)
        require(PKCEStore.verifier(inContents: written, now: nil) == verifier, "a verifier written reads as another")
        require(PKCEStore.expiry(inContents: written) == expires, "a verifier written reads with another expiry")
    }
}
