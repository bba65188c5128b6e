/// What the daemon's log says happened, as the `LINKD_EVENT` field of the line: in the journal, and at the end of a
/// line on standard error (`(LINKD_EVENT=accepted LINKD_LINK_ID=… …)`). A program follows what the daemon does by
/// these fields (`journalctl --user LINKD_EVENT=answered`), never by the wording of its messages.
package enum DaemonEvent: String, Sendable, CaseIterable {
    /// It listens: its socket takes links.
    case listening
    /// It read the configuration again (SIGHUP, or a change in an apps.d folder).
    case configurationRead = "configuration_read"
    /// It recorded a link in the spool (`LINKD_LINK_ID`, `LINKD_APP`, `LINKD_ROUTE`).
    case accepted
    /// It answered a link it had accepted: `LINKD_STATE` (`delivered`, `queued`, `done`), or `LINKD_REASON` when it
    /// failed.
    case answered
    /// It refused a link before recording it (`LINKD_REASON`).
    case refused
    /// It took up again a link a daemon that stopped left in the spool.
    case replayed
    /// A subscriber took a forwarded link, which left the spool.
    case taken
    /// A program started for a link exited (`LINKD_STATUS`).
    case programExited = "program_exited"
    /// It serves its interface for apps (`io.linkd.Linkd1`) on the session bus.
    case busNameTaken = "bus_name_taken"
    /// An app subscribed on the session bus (`LINKD_APP`, and `LINKD_PROOF`: `key` or `flatpak`).
    case subscribed
    /// It started an app for its `forward` links (`"start": "desktop"`; `LINKD_APP`).
    case appStarted = "app_started"
    /// It stops: a signal, or idle.
    case stopping
}
