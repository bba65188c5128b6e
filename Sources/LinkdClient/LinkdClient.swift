import LinkdSystem

/// An app's connection to linkd: it subscribes as the app, and hears the app's links and signed-in sessions, each
/// once, as ``events`` — the ones that waited for the app first, then each as it comes.
///
/// ```swift
/// import LinkdClient
///
/// let linkd = try await LinkdClient.subscribe(app: "com.example.Notes")
/// for await event in linkd.events {
///     if case .link(let link) = event { openNote(link.fields["id"]) }
/// }
/// ```
///
/// linkd speaks to it on the session bus (`io.linkd.Linkd1`), which starts linkd when it is not running. A host app
/// proves it is the app with the key linkd keeps for it (`$XDG_RUNTIME_DIR/linkd/keys/APP`, read here); a Flatpak
/// app is the app its sandbox says, and needs no key. When linkd restarts, the client subscribes again by itself. Each
/// link and session is the app's once it is in ``events`` (the client sends linkd its receipt): one this process did
/// not get before it ended goes to the app's next subscriber.
public final class LinkdClient: Sendable {
    /// The app this client subscribed as.
    public let app: String
    /// What linkd sends the app, in order. It ends when ``close()`` is called or the session bus goes away.
    public let events: AsyncStream<LinkdEvent>
    private let continuation: AsyncStream<LinkdEvent>.Continuation
    private let endpoint: BusEndpoint
    /// The key the app gave; `nil`: the one linkd keeps for it, read at each subscription.
    private let key: String?
    private let answer: (@Sendable (LinkdQuestion) async -> String?)?
    /// linkd's connection on the bus (its unique name): only its signals count, since any peer may send a signal to
    /// this connection.
    private let linkd = Lock<String?>(nil)

    private static let name = "io.linkd.Linkd1"
    private static let path = "/io/linkd/Linkd1"

    /// Subscribes as `app`, and returns once linkd has taken the subscription.
    ///
    /// - Parameters:
    ///   - app: the app's id, as its apps.d file names it.
    ///   - key: the app's key; by default the contents of `$XDG_RUNTIME_DIR/linkd/keys/APP`, or none in a Flatpak
    ///     sandbox.
    ///   - busAddress: the session bus to use; by default the user's.
    ///   - answer: asks the person, in the app's own window, what a reset or a sign-in needs (the new password, a
    ///     second factor's code, whether to keep a sign-in: `yes`), and returns the answer, or `nil` when they
    ///     cancelled. Without it, linkd asks them itself (askpass, a terminal, a notification); it does too when the
    ///     answer takes longer than its time (120 s).
    /// - Throws: ``LinkdClientError`` when there is no session bus, or linkd refuses the subscription (an app no
    ///   apps.d file names; a wrong key).
    public static func subscribe(
        app: String,
        key: String? = nil,
        busAddress: String? = nil,
        answer: (@Sendable (LinkdQuestion) async -> String?)? = nil
    ) async throws(LinkdClientError) -> LinkdClient {
        let endpoint: BusEndpoint
        do {
            endpoint = try BusEndpoint(address: busAddress)
        } catch {
            throw LinkdClientError(name: "io.linkd.Error.NoBus", message: "no session bus: \(error)")
        }
        let client = LinkdClient(app: app, key: key, endpoint: endpoint, answer: answer)
        do throws(LinkdClientError) {
            try await client.start()
        } catch {
            client.close()
            throw error
        }
        return client
    }

    private init(
        app: String,
        key: String?,
        endpoint: BusEndpoint,
        answer: (@Sendable (LinkdQuestion) async -> String?)?
    ) {
        self.app = app
        self.key = key
        self.answer = answer
        self.endpoint = endpoint
        (events, continuation) = AsyncStream.makeStream(of: LinkdEvent.self)
        endpoint.whenClosed { [continuation] in continuation.finish() }
    }

    deinit { endpoint.close() }

    /// Watches linkd's signals and its name, then subscribes.
    private func start() async throws(LinkdClientError) {
        let continuation = continuation
        do throws(BusError) {
            try await endpoint.watch(
                "type='signal',sender='\(Self.name)',path='\(Self.path)',interface='\(Self.name)'"
            ) { [weak self] signal in
                guard let self, signal.sender == linkd.withLock({ $0 }) else { return }
                // A person waits on both (a click, a question in the app's window): their tasks run at a priority
                // of their own, which busy default-priority work in the app does not hold up.
                if let event = LinkdEvent(signal) {
                    continuation.yield(event)
                    // In this process's hands now: linkd may let it go (until then, it is sent again should this
                    // process end first).
                    if let id = event.deliveryID {
                        Task(priority: .userInitiated) { try? await self.call("Received", [.string(id)]) }
                    }
                }
                if signal.member == "Question" {
                    Task(priority: .userInitiated) { await self.respond(to: signal.arguments) }
                }
            }
            // A linkd that starts again (a restart, a crash) takes the name again: subscribe to it once more.
            try await endpoint.watch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'"
            ) { [weak self] signal in
                guard let self, signal.sender == "org.freedesktop.DBus", signal.arguments.count == 3,
                    let owner = signal.arguments[2].string, !owner.isEmpty
                else { return }
                linkd.withLock { $0 = owner }
                Task { try? await self.sendSubscribe() }
            }
        } catch {
            throw LinkdClientError(name: error.name, message: error.message)
        }
        try await sendSubscribe()
    }

    private func sendSubscribe() async throws(LinkdClientError) {
        var key = key ?? AppKey.read(for: app)
        if key.isEmpty, self.key == nil {
            // linkd writes the keys when it starts: a first call starts it (the bus does, through its unit), then the
            // key is there to read — unless this is a Flatpak sandbox, which needs none.
            _ = await endpoint.call(
                destination: Self.name,
                path: Self.path,
                interface: "org.freedesktop.DBus.Peer",
                member: "Ping",
                arguments: []
            )
            key = AppKey.read(for: app)
        }
        let owner = await endpoint.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "GetNameOwner",
            arguments: [.string(Self.name)]
        )
        if case .success(let values) = owner, let name = values.first?.string { linkd.withLock { $0 = name } }
        let reply = await endpoint.call(
            destination: Self.name,
            path: Self.path,
            interface: Self.name,
            member: "SubscribeWithReceipts",
            arguments: [.string(app), .string(key)]
        )
        if case .failure(let error) = reply { throw LinkdClientError(name: error.name, message: error.message) }
        if answer != nil {
            let kinds = LinkdQuestion.Kind.allCases.map(\.rawValue)
            try await call("AnswerQuestions", [.string(app), .strings(kinds)])
        }
    }

    /// Asks the app's backend to email `email` a password-reset link, as `linkd reset request` does; its link then
    /// comes back through linkd, which asks for the new password (in the app's window, with `answer`) and sends
    /// ``LinkdEvent/resetDone(account:)`` or ``LinkdEvent/resetFailed(reason:message:)``.
    ///
    /// - Throws: ``LinkdClientError``: the backend's refusal (`io.linkd.Linkd1.Error.backend_unreachable`, …), or
    ///   `io.linkd.Linkd1.Error.RateLimited` after 5 requests within 10 minutes.
    public func requestReset(email: String) async throws(LinkdClientError) {
        try await call("RequestReset", [.string(app), .string(email)])
    }

    /// Signs the app in with `provider` (`github`, `google`, … as the Supabase project names them, or `apple` for an
    /// app set up for Sign in with Apple), as `linkd login --provider` does: returns the address of the provider's
    /// sign-in page, which the app opens in the browser; the sign-in comes back through the app's `signin` link (its
    /// `apple` link, through the Return URL page, for Apple), and its session as ``LinkdEvent/session(_:)`` once the
    /// person confirms it (with `answer`, a ``LinkdQuestion/Kind/confirm`` question; without, linkd asks).
    ///
    /// - Throws: ``LinkdClientError``, as ``requestReset(email:)``.
    public func signIn(provider: String) async throws(LinkdClientError) -> String {
        let reply = await endpoint.call(
            destination: Self.name,
            path: Self.path,
            interface: Self.name,
            member: "SignIn",
            arguments: [.string(app), .string(provider)]
        )
        switch reply {
        case .success(let values): return values.first?.string ?? ""
        case .failure(let error): throw LinkdClientError(name: error.name, message: error.message)
        }
    }

    /// Asks the app's backend to email `email` a sign-in link (a magic link), as `linkd login --email` does; its
    /// session comes as ``LinkdEvent/session(_:)``.
    ///
    /// - Throws: ``LinkdClientError``, as ``requestReset(email:)``.
    public func signInWithEmail(_ email: String) async throws(LinkdClientError) {
        try await call("SignInWithEmail", [.string(app), .string(email)])
    }

    /// A question linkd asked (`Question(id, question, prompt, rejection)`): the app's answer, or its refusal.
    private func respond(to arguments: [BusValue]) async {
        guard let answer, arguments.count == 4, let id = arguments[0].string,
            let kind = arguments[1].string.flatMap(LinkdQuestion.Kind.init(rawValue:)), let prompt = arguments[2].string
        else { return }
        let rejection = arguments[3].string.flatMap { $0.isEmpty ? nil : $0 }
        if let given = await answer(LinkdQuestion(kind: kind, prompt: prompt, rejection: rejection)) {
            try? await call("Answer", [.string(id), .string(given)])
        } else {
            try? await call("Decline", [.string(id)])
        }
    }

    /// Calls `member` of linkd's interface.
    private func call(_ member: String, _ arguments: [BusValue]) async throws(LinkdClientError) {
        let reply = await endpoint.call(
            destination: Self.name,
            path: Self.path,
            interface: Self.name,
            member: member,
            arguments: arguments
        )
        if case .failure(let error) = reply { throw LinkdClientError(name: error.name, message: error.message) }
    }

    /// Stops the subscription and closes the connection: ``events`` ends, and what linkd had not sent waits for the
    /// app's next subscription.
    public func close() {
        endpoint.close()
    }
}

/// Why linkd could not be reached, or refused what the app asked: the D-Bus error's name
/// (`io.linkd.Linkd1.Error.NotProven`, `io.linkd.Linkd1.Error.UnknownApp`, …) and linkd's words.
public struct LinkdClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let message: String

    public var description: String { "\(name): \(message)" }
}
