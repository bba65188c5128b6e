import LinkdFormats
import LinkdSession

extension FuzzTarget {
    /// The readers of a PKCE store's files (a verifier for `linkd reset request`, `linkd login` or Sign in with
    /// Apple) on any bytes: a verifier is read or not, never a crash; one read has an expiry, and is read at a time
    /// exactly when that time is before its expiry, so that storing a verifier never removes as expired one that
    /// would still be read; and a verifier with its expiry and its browser mark, written as the store writes it, reads
    /// back as itself, with the same mark.
    package static let pkce = FuzzTarget("pkce") { bytes in
        let contents = Array(bytes)
        let expiry = PKCEStore.expiry(inContents: contents)
        guard let verifier = PKCEStore.verifier(inContents: contents, now: nil) else { return }
        guard let expires = expiry else { fatalError("invariant broken: a verifier read without an expiry") }
        for now in [Int64.min, 0, expires &- 1, expires, expires &+ 1, Int64.max] {
            let isRead = PKCEStore.verifier(inContents: contents, now: now) == verifier
            require(isRead == (now < expires), "a verifier is read at a time not before its expiry, or not before it")
        }
        for inBrowser in [false, true] {
            let written = PKCEStore.contents(verifier, expires: expires, inBrowser: inBrowser)
            let entry = PKCEStore.entry(inContents: written, now: nil)
            require(entry?.verifier == verifier, "a verifier written reads as another")
            require(entry?.inBrowser == inBrowser, "a verifier written reads with another browser mark")
            require(PKCEStore.expiry(inContents: written) == expires, "a verifier written reads with another expiry")
        }
    }
}
