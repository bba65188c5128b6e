import Foundation
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire
import Testing

@testable import LinkdDaemon

/// A backend written in this one file and listed beside linkd's own: apps.d names it (`"kind": "ledger"`), and the
/// daemon resets a password and signs a person in through it, with its links in Supabase's format — with no line of
/// linkd changed.
@Suite struct OneFileBackendTests {
    /// An auth service kept in memory: accounts, their emailed one-time tokens, and the sessions it signed in.
    final class Ledger: Sendable {
        struct Books: Sendable {
            var passwords: [String: String] = [:]
            /// Unused emailed tokens, and whose account each is.
            var tokens: [String: String] = [:]
            /// Live sessions, by token.
            var sessions: [String: String] = [:]
        }

        let books = Lock(Books())
        /// Every ledger of the tests, by the name apps.d gives it.
        static let named = Lock<[String: Ledger]>([:])

        /// A ledger apps.d names `name`.
        static func make() -> (name: String, ledger: Ledger) {
            let (name, ledger) = ("ledger-" + UUID().uuidString, Ledger())
            named.withLock { $0[name] = ledger }
            return (name, ledger)
        }

        /// An emailed token for `email`'s account.
        func token(for email: String) -> String {
            let token = UUID().uuidString
            books.withLock { $0.tokens[token] = email }
            return token
        }

        /// The account of an unused token, which the call uses up; a refusal as a backend gives one for any other.
        func redeem(_ token: Secret) throws(SessionError) -> String {
            guard let email = books.withLock({ $0.tokens.removeValue(forKey: token.revealed()) }) else {
                throw .backend(BackendError(kind: .linkExpiredOrUsed, status: 403, code: "used", message: "used"))
            }
            return email
        }
    }

    /// The ledger's settings in apps.d: `{"kind": "ledger", "url": …, "ledger": NAME}`, and the client made of them.
    struct LedgerSettings: BackendSettingsReading, SessionBackendMaking {
        static let keyword = "ledger"
        static let name = "Ledger"
        static let format = AuthLinkFormat.supabase
        static let keys: Set<String> = ["ledger"]
        static var resetType: any AuthBackend.Type { LedgerReset.self }

        let ledger: String

        static func decode(_ object: JSONValue, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
            decoder.string(object["ledger"], at: "\(path).ledger").map(Self.init)
        }

        func makeBackend(at url: LinkURL, transport: any HTTPTransport) -> SessionBackend {
            let ledger = Ledger.named.withLock { $0[self.ledger] } ?? Ledger()
            return SessionBackend(reset: LedgerReset(ledger: ledger), signIn: LedgerSignIn(ledger: ledger))
        }
    }

    /// A recovery link's token sets the password of its account.
    struct LedgerReset: AuthBackend {
        static let emailLeadsToRequestedLink = true
        static let emailedLinkPath: String? = nil
        let ledger: Ledger

        func material(
            of route: AuthRoute?,
            routeID: String,
            app: String,
            verifiers: PKCEStore?
        ) -> Result<Secret, ResetFailure> {
            guard case .supabaseOTP(let otp) = route, otp.type == "recovery" else {
                return .failure(.notAReset(route, routeID: routeID))
            }
            return .success(otp.tokenHash)
        }

        func establish(
            _ material: Secret,
            appName: String,
            retry: RequestRetry
        ) async throws(SessionError) -> (session: String, account: ResetAccount) {
            let email = try ledger.redeem(material)
            return (email, ResetAccount(email: email, app: appName))
        }

        func secondFactor(
            of session: String,
            afterRefusal: Bool,
            retry: RequestRetry
        ) async throws(SessionError)
            -> SecondFactor?
        { nil }

        func proveSecondFactor(
            _ factor: SecondFactor,
            code: Secret,
            in session: String
        ) async throws(SessionError)
            -> String
        { session }

        func setPassword(_ password: Secret, in session: String) async throws(SessionError) {
            ledger.books.withLock { $0.passwords[session] = password.revealed() }
        }

        func signOut(_ session: String) async -> Bool { false }

        func requestReset(
            email: String,
            redirectTo: String,
            verifierStore: PKCEStore,
            app: String
        )
            async throws(ResetFailure)
        {}
    }

    /// A magic link's token signs its account in; the session is a token of its own.
    struct LedgerSignIn: SignInBackend {
        struct Session: Sendable {
            let email: String
            let token: String
        }

        let ledger: Ledger

        func material(
            of route: AuthRoute?,
            routeID: String,
            app: String,
            stores: SignInStores
        ) -> Result<(Secret, SignInOrigin), SignInFailure> {
            guard case .supabaseOTP(let otp) = route, otp.type == "magiclink" else {
                return .failure(SignInFailure(kind: .notASignIn, message: "a '\(routeID)' link does not sign in"))
            }
            return .success((otp.tokenHash, .notStartedByLinkd))
        }

        func session(_ material: Secret) async throws(SessionError) -> Session {
            let session = Session(email: try ledger.redeem(material), token: UUID().uuidString)
            ledger.books.withLock { $0.sessions[session.token] = session.email }
            return session
        }

        func account(of session: Session) -> String { session.email }

        func delivery(of session: Session, id: String, app: String, route: String, name: PersonName?) -> [UInt8] {
            Array(#"{"id": "\#(id)", "app": "\#(app)", "session": "\#(session.token)", "backend": "ledger"}"#.utf8)
                + [0x0A]
        }

        func secretValues(of session: Session) -> [String] { [session.token] }

        func signOut(_ session: Session) async -> Bool {
            ledger.books.withLock { $0.sessions.removeValue(forKey: session.token) } != nil
        }
    }

    static let email = "ada@example.com"

    static func apps(ledger: String) -> String {
        #"""
        {"app": "com.example.Ledger",
         "links": [{"match": "ledgerapp://reset", "format": "supabase", "action": "reset"},
                   {"match": "ledgerapp://signin", "format": "supabase", "action": {"signin": "forward"}}],
         "backend": {"kind": "ledger", "url": "https://ledger.example", "ledger": "\#(ledger)"}}
        """#
    }

    static let backends = BackendKinds(BackendKinds.linkd.all + [LedgerSettings.self])

    @Test func appsDNamesItOnlyWhereItIsListed() throws {
        let apps = Array(Self.apps(ledger: "books").utf8)
        var listed = AppConfigDecoder(file: "a.json", programs: ProgramSearch(directories: []), actions: .linkd)
        #expect(listed.decode(apps) == nil)
        // Unlisted, the kind is unknown and its key is no backend's.
        #expect(listed.errors.map(\.path) == ["$.backend.ledger", "$.backend.kind"])
        #expect(listed.errors.last?.problem == "expected 'supabase' or 'appservices'")

        var with = AppConfigDecoder(
            file: "a.json",
            programs: ProgramSearch(directories: []),
            actions: .linkd,
            backends: Self.backends
        )
        let decoded = with.decode(apps)
        let app = try #require(decoded, "\(with.errors)")
        #expect(app.backend?.name == "Ledger")
        #expect(app.backend?.kind as? LedgerSettings == LedgerSettings(ledger: "books"))
    }

    @Test func aResetLinkSetsThePasswordThroughIt() async throws {
        let (name, ledger) = Ledger.make()
        ledger.books.withLock { $0.passwords[Self.email] = "old" }
        let world = try LinkServiceTests.World(apps: Self.apps(ledger: name), backends: Self.backends)
        defer { try? FileManager.default.removeItem(at: world.root) }
        let client = LinkServiceTests.ScriptedClient(["correct horse battery staple"])
        let link = "ledgerapp://reset?token_hash=\(ledger.token(for: Self.email))&type=recovery"
        let response = await world.service.open(link, client: client)
        guard case .accepted(_, let app, let state, let message) = response else {
            Issue.record("not accepted: \(response)")
            return
        }
        #expect(app == "com.example.Ledger" && state == .done)
        #expect(message == "the password of a***@example.com was changed")
        #expect(ledger.books.withLock { $0.passwords[Self.email] } == "correct horse battery staple")
        #expect(client.prompts.withLock { $0.count } == 1)
        #expect(world.spooled.isEmpty)

        let again = await world.service.open(link, client: LinkServiceTests.ScriptedClient(["x"]))
        #expect(again.failure?.reason == WireProtocol.Reason(ResetFailureKind.linkExpiredOrUsed), "\(again)")
        #expect(ledger.books.withLock { $0.passwords[Self.email] } == "correct horse battery staple")
    }

    @Test func aMagicLinkSignsInThroughItOnceThePersonConfirms() async throws {
        let (name, ledger) = Ledger.make()
        let world = try LinkServiceTests.World(apps: Self.apps(ledger: name), backends: Self.backends)
        defer { try? FileManager.default.removeItem(at: world.root) }
        let confirming = SignInActionTests.ConfirmingClient(answer: true)
        let link = "ledgerapp://signin?token_hash=\(ledger.token(for: Self.email))&type=magiclink"
        let response = await world.service.open(link, client: confirming)
        guard case .accepted(let route, _, let state, _) = response else {
            Issue.record("not accepted: \(response)")
            return
        }
        #expect(route == "supabase.otp" && state == .queued)
        #expect(confirming.questions.withLock { $0 } == ["Sign in to com.example.Ledger as \(Self.email)?"])
        #expect(ledger.books.withLock { $0.sessions.values.sorted() } == [Self.email])
        #expect(world.spooled.map(\.kind) == [.signin])

        let declined = "ledgerapp://signin?token_hash=\(ledger.token(for: Self.email))&type=magiclink"
        let refused = await world.service.open(declined, client: SignInActionTests.ConfirmingClient(answer: false))
        #expect(refused.failure?.reason == .notConfirmed, "\(refused)")
        #expect(ledger.books.withLock { $0.sessions.count } == 1, "the declined sign-in's session is signed out")
    }
}
