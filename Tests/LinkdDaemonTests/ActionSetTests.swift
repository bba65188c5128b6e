import LinkdConfig
import LinkdFormats
import Testing

@testable import LinkdDaemon

/// The one list of actions: every keyword apps.d can name finds its action there, under the keyword the action itself
/// declares; the configuration reads exactly those keywords; each action's settings read back as apps.d writes them.
@Suite struct ActionSetTests {
    @Test func everyRegisteredActionIsFoundByTheKeywordItDeclares() throws {
        let world = try LinkServiceTests.World(
            apps: #"{"app": "com.example.A", "links": [{"match": "myapp://x", "action": "forward"}]}"#
        )
        let actions = world.service.actions.byKeyword
        #expect(Set(actions.keys) == Set(ActionKinds.linkd.keywords))
        for (keyword, action) in actions { #expect(type(of: action).keyword == keyword) }
        #expect(ActionKinds.linkd.keywords == ["reset", "forward", "exec", "dbus", "signin"])
    }

    /// The daemon's list and the vocabulary apps.d is read with (``ActionKinds/linkd``, which the configuration, the
    /// CLI and the desktop files use without the daemon) are one: each registered action reads the settings of the
    /// kind of its keyword, in the same order.
    @Test func theDaemonRegistersTheSettingsTypesOfTheVocabularyInItsOrder() {
        let registered = ActionSet.registered.map { $0.type.settingsType }
        #expect(registered.map { $0.keyword } == ActionKinds.linkd.keywords)
        for (daemon, vocabulary) in zip(registered, ActionKinds.linkd.all) {
            #expect(
                ObjectIdentifier(daemon) == ObjectIdentifier(vocabulary),
                "\(daemon.keyword): the daemon reads the vocabulary's settings type"
            )
        }
    }

    @Test(arguments: [
        #""reset""#, #""forward""#, #"{"exec": ["/bin/true", "--flag"]}"#, #"{"dbus": "org.example.A"}"#,
        #"{"signin": "forward"}"#, #"{"signin": {"exec": ["/bin/true"]}}"#,
    ])
    func anActionReadsBackAsItIsWritten(_ written: String) throws {
        let app = """
            {"app": "com.example.A", "backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "k"},
             "links": [{"match": "myapp://x", "format": "supabase", "action": \(written)}]}
            """
        var decoder = AppConfigDecoder(file: "a.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let decoded = decoder.decode(Array(app.utf8))
        let config = try #require(decoded, "\(decoder.errors)")
        let action = try #require(config.links.first?.action)
        #expect(action.settings.json == (try JSONValue.parse(Array(written.utf8))))
    }

    @Test func aKeywordNoActionDeclaresIsRefusedNamingEveryAction() {
        var decoder = AppConfigDecoder(file: "a.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = #"{"app": "com.example.A", "links": [{"match": "myapp://x", "action": {"spawn": ["/bin/true"]}}]}"#
        #expect(decoder.decode(Array(app.utf8)) == nil)
        #expect(
            decoder.errors.map(\.problem) == [
                #"expected "reset", "forward", {"exec": [argv…]}, {"dbus": "app.id"} or {"signin": …}"#
            ]
        )
    }
}
