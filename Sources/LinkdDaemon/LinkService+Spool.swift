import LinkdConfig

extension LinkService {
    /// The spool could not record a link; `response` is the answer for the client.
    struct SpoolUnwritable: Error {
        let response: String
    }

    /// Records an accepted link in the spool before any action runs, so that a crash cannot lose it.
    ///
    /// - Throws: ``SpoolUnwritable`` (after logging why) when the spool cannot be written.
    func record(
        _ url: String,
        app: String? = nil,
        expires: Double? = nil,
        action: String? = nil
    ) throws(SpoolUnwritable) -> Spool.Entry {
        do {
            return try spool.add(url: url, app: app, expires: expires, action: action)
        } catch {
            log.error("cannot write the spool: \(error)")
            throw SpoolUnwritable(
                response: WireProtocol.failure(
                    WireProtocol.Failure(
                        kind: "temporary",
                        reason: "spool_failed",
                        message: "linkd cannot record the link: \(error)"
                    )
                )
            )
        }
    }
}
