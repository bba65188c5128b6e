import Foundation
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSystem
import LinkdWire
import Testing

@testable import LinkdCLI
@testable import LinkdDaemon

/// An action written in this one file and registered beside linkd's own: apps.d names it, `linkd route` prints it,
/// the daemon routes a link to it and spools the link with what the action keeps, and a daemon started again after
/// the first was killed replays the link to it — with no line of linkd changed.
@Suite struct OneFileActionTests {
    /// `{"note": "LABEL"}`: the link is noted under the label, and waits in the spool until it is read.
    struct NoteAction: Action {
        struct Settings: ActionSettings {
            static let keyword = "note"
            static let example = #"{"note": "label"}"#
            let label: String

            static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
                guard let label = value?.stringValue, !label.isEmpty else {
                    decoder.fail(path, "expected a label")
                    return nil
                }
                return Settings(label: label)
            }

            var json: JSONValue { .object([("note", .string(label))]) }
            var summary: String { "note under " + DisplayText.sanitize(label) }
        }

        /// The links noted, with their label and whether a replay noted them; shared by every daemon of a test.
        let notebook: NoteBook

        func canTakeNow(_ link: ClaimedLink, context: ActionContext) async -> Bool { true }

        /// The label to note the link under.
        func plan(
            _ link: ClaimedLink,
            client: (any LinkClient)?,
            context: ActionContext
        ) async -> Result<String, WireProtocol.Failure> {
            .success(settings(of: link).label)
        }

        func admission(_ label: String, link: ClaimedLink) -> Admission { Admission(kind: .note(label)) }

        func run(_ label: String, _ run: LinkRun) async -> Outcome {
            notebook.pages.withLock { $0.append((run.link.url, label, false)) }
            // Not read yet: the entry stays in the spool, as a program's does until the program has read its link.
            return Outcome(.accepted(route: run.link.route.id, app: run.link.appName, state: .queued), .handedOn)
        }

        func replay(_ entry: Spool.Entry, link: ClaimedLink?, context: ActionContext) async -> Replay<String> {
            defer { context.spool.remove(entry.id) }
            guard let label = entry.kind.memory["label"]?.string else { return .handled }
            notebook.pages.withLock { $0.append((entry.url, label, true)) }
            return .handled
        }
    }

    static let apps =
        #"{"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": {"note": "inbox"}}]}"#

    /// linkd's actions and the note action, which notes into `notebook`.
    static func registrations(_ notebook: NoteBook) -> [ActionSet.Registration] {
        ActionSet.registered + [ActionSet.Registration(NoteAction.self) { _ in NoteAction(notebook: notebook) }]
    }

    /// A notebook the actions of a test share.
    final class NoteBook: Sendable {
        let pages = Lock<[(url: String, label: String, replayed: Bool)]>([])
    }

    @Test func appsDNamesItAndLinkdRoutePrintsIt() throws {
        var decoder = AppConfigDecoder(
            file: "a.json",
            programs: ProgramSearch(directories: []),
            actions: ActionSet.kinds(Self.registrations(NoteBook()))
        )
        let decoded = decoder.decode(Array(Self.apps.utf8))
        let app = try #require(decoded)
        let resolution = try LinkResolver(apps: [app], fallbackToBuiltIns: false)
            .resolve(LinkURL(parsing: "myapp://note/7"))
        let output = RouteOutput(reveal: false, unmatchedReason: "no_app")
        #expect(output.text(resolution, input: "myapp://note/7").contains("  action: note under inbox\n"))
        #expect(output.json(resolution, input: "myapp://note/7").contains(#""action": {"note": "inbox"}"#))

        var without = AppConfigDecoder(file: "a.json", programs: ProgramSearch(directories: []), actions: .linkd)
        #expect(without.decode(Array(Self.apps.utf8)) == nil)
        #expect(without.errors.map(\.path) == ["$.links[0].action"])
    }

    @Test func aLinkIsSpooledWithWhatTheActionKeepsAndReplayedAfterAKill() async throws {
        let notebook = NoteBook()
        let first = try LinkServiceTests.World(apps: Self.apps, registrations: Self.registrations(notebook))
        defer { try? FileManager.default.removeItem(at: first.root) }
        #expect(await first.service.canTakeNow("myapp://note/7"))
        let response = await first.service.open("myapp://note/7")
        #expect(response == .accepted(route: "myapp://note/{id}", app: "com.example.A", state: .queued))
        #expect(first.spooled.map(\.kind) == [.note("inbox")])
        #expect(notebook.pages.withLock { $0.map(\.replayed) } == [false])

        // Killed: the first service is dropped as it stands, and a second starts over its spool.
        let second = try LinkServiceTests.World(
            apps: Self.apps,
            registrations: Self.registrations(notebook),
            root: first.root
        )
        await second.service.replay(second.service.leftInSpool())
        let pages = notebook.pages.withLock { $0 }
        #expect(pages.map(\.url) == ["myapp://note/7", "myapp://note/7"])
        #expect(pages.map(\.label) == ["inbox", "inbox"])
        #expect(pages.map(\.replayed) == [false, true])
        #expect(second.spooled.isEmpty)
    }

    @Test func aDaemonWithoutTheActionRemovesItsEntriesAsUnreadable() async throws {
        let notebook = NoteBook()
        let first = try LinkServiceTests.World(apps: Self.apps, registrations: Self.registrations(notebook))
        defer { try? FileManager.default.removeItem(at: first.root) }
        _ = await first.service.open("myapp://note/7")
        let plain = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://x", "action": "forward"}]}"#,
            root: first.root
        )
        #expect(await plain.service.leftInSpool().isEmpty)
        #expect(plain.spooled.isEmpty)
    }
}

extension Spool.Entry.Kind {
    /// A noted link, with its label.
    static func note(_ label: String) -> Self { Self(keyword: "note", memory: ["label": .string(label)]) }
}
