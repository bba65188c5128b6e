import LinkdConfig
import LinkdSession

/// The daemon's actions, one of each, and the one list they are registered in (``registered``): ``LinkService`` finds
/// a link's action by its apps.d keyword, and a spool entry's by its kind, here. The configuration reads the links that
/// name them with ``ActionKinds/linkd``, the same list of settings types (`Sources/LinkdConfig/Actions`), so that
/// reading apps.d needs no daemon.
struct ActionSet: Sendable {
    /// An action's type and how the set makes it from what the daemon was given.
    struct Registration: Sendable {
        let type: any Action.Type
        let make: @Sendable (Setup) -> any Action

        init<Made: Action>(_ type: Made.Type, make: @escaping @Sendable (Setup) -> Made) {
            self.type = type
            self.make = make
        }
    }

    /// What the daemon gives its actions, and what they share: the programs' delivery and the `forward` queue (a
    /// sign-in hands its session to either), and the apps' windows (a reset asks them, and tells them its result).
    struct Setup: Sendable {
        let pkceStore: PKCEStore?
        let signInStore: PKCEStore?
        let appleStore: PKCEStore?
        let dbus: DBusAction
        let programs: ProgramDelivery
        let forward: ForwardAction
        let appWindow: AppWindow
    }

    /// Every action linkd has, in the order a configuration problem lists them.
    static let registered: [Registration] = [
        Registration(ResetAction.self) { ResetAction(pkceStore: $0.pkceStore, appWindow: $0.appWindow) },
        Registration(ForwardAction.self) { $0.forward },
        Registration(ExecAction.self) { ExecAction(programs: $0.programs) },
        Registration(DBusAction.self) { $0.dbus },
        Registration(SignInAction.self) {
            SignInAction(
                pkceStore: $0.signInStore,
                appleStore: $0.appleStore,
                programs: $0.programs,
                forward: $0.forward,
                appWindow: $0.appWindow
            )
        },
    ]

    /// The kinds apps.d may name when the daemon has `registrations`.
    static func kinds(_ registrations: [Registration]) -> ActionKinds {
        ActionKinds(registrations.map { $0.type.settingsType })
    }

    /// The actions with chores of their own, which the daemon runs beside the server, in the order they are
    /// registered.
    let chores: [any ActionChores]
    /// Where apps' subscribers take their links and sessions.
    let subscriptions: any AppSubscriptions
    /// The apps' windows, which the apps' interface serves.
    let appWindow: AppWindow
    /// Every action, by its keyword.
    let byKeyword: [String: any Action]
    /// The actions that serve requests of their own on the wire, in the order they are registered.
    let requestServers: [any RequestServing]

    init(
        supervisor: ProgramSupervisor,
        execTimeLimit: Duration,
        forwardTTL: Double,
        forwardQueueLimit: Int,
        appWindow: AppWindow,
        pkceStore: PKCEStore?,
        signInStore: PKCEStore?,
        appleStore: PKCEStore?,
        dbus: DBusAction,
        registrations: [Registration] = ActionSet.registered
    ) {
        let setup = Setup(
            pkceStore: pkceStore,
            signInStore: signInStore,
            appleStore: appleStore,
            dbus: dbus,
            programs: ProgramDelivery(timeLimit: execTimeLimit, supervisor: supervisor, launcher: supervisor.launcher),
            forward: ForwardAction(
                timeToLive: forwardTTL,
                queueLimit: forwardQueueLimit,
                starter: AppStarter(launcher: supervisor.launcher)
            ),
            appWindow: appWindow
        )
        let made = registrations.map { $0.make(setup) }
        byKeyword = Dictionary(uniqueKeysWithValues: made.map { (type(of: $0).keyword, $0) })
        requestServers = made.compactMap { $0 as? any RequestServing }
        chores = made.compactMap { $0 as? any ActionChores }
        subscriptions = setup.forward
        self.appWindow = appWindow
    }
}
