/// An action with work of its own beside the links it is handed — the `forward` action's queue expires waiting links
/// and signs out dropped sessions. The action set lists every action that has some (``ActionSet/chores``), and the
/// daemon runs each as one of its services.
protocol ActionChores: Sendable {
    /// The service's name in the daemon's log.
    var choresName: String { get }

    /// Does the chores until cancelled; the daemon cancels it only after its stop has drained.
    func runChores(context: ActionContext) async

    /// The daemon is stopping: what would be lost with it is let go now.
    func stopping(context: ActionContext) async
}
