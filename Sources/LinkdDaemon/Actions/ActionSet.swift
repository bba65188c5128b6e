import LinkdSession

/// The daemon's actions, one of each, and the one list they are registered in: ``LinkService`` finds a link's action
/// by its apps.d keyword, and a spool entry's by its kind, here.
struct ActionSet: Sendable {
    /// The actions others hand on to, or the server serves directly (subscribers, waiting `linkd login`s).
    let exec: ExecAction
    let forward: ForwardAction
    let signIn: SignInAction
    /// Every action, by its keyword.
    let byKeyword: [String: any Action]

    init(
        supervisor: ProgramSupervisor,
        execTimeLimit: Duration,
        forwardTTL: Double,
        forwardQueueLimit: Int,
        pkceStore: PKCEStore?,
        signInStore: PKCEStore?,
        appleStore: PKCEStore?,
        dbus: DBusAction
    ) {
        exec = ExecAction(timeLimit: execTimeLimit, supervisor: supervisor)
        forward = ForwardAction(timeToLive: forwardTTL, queueLimit: forwardQueueLimit)
        signIn = SignInAction(pkceStore: signInStore, appleStore: appleStore, exec: exec, forward: forward)
        let all: [any Action] = [exec, dbus, forward, ResetAction(pkceStore: pkceStore), signIn]
        byKeyword = Dictionary(uniqueKeysWithValues: all.map { (type(of: $0).keyword, $0) })
    }
}
