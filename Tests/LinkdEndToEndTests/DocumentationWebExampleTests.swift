import Foundation
import LinkdTestSupport
import Testing

/// The web link examples of the guides (blocks marked ` ```console web `): their `linkd` commands run in order in a
/// desktop whose browser is Firefox ESR, with the example app of `share/examples/apps.d` given the `web` section the
/// guide names (`ABCDE12345.com.example.notes`) and its `https` link on a real HTTPS server of the tests that serves
/// an apple-app-site-association listing it; each prints what the guide shows, the server's host read as the
/// guide's `notes.example.com` (and the guide's host given to a command as the server's).
@Suite(.ownThread) struct DocumentationWebExampleTests {
    static let appID = "ABCDE12345.com.example.notes"

    private func world() throws -> WebClickWorld {
        let aasa = #"{"applinks": {"details": [{"appIDs": ["\#(Self.appID)"], "components": [{"/": "/reset"}]}]}}"#
        let web = try WebClickWorld { request in
            request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(aasa.utf8)) : DoubleResponse(status: 404)
        }
        try web.writeBrowser("firefox-esr.desktop", program: "exit 0")
        let list =
            "[Default Applications]\nx-scheme-handler/http=firefox-esr.desktop\n"
            + "x-scheme-handler/https=firefox-esr.desktop\n"
        try Data(list.utf8).write(to: web.world.config.appendingPathComponent("mimeapps.list"))
        let apps = web.world.config.appendingPathComponent("linkd/apps.d")
        try FileManager.default.removeItem(at: apps)
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let example = try DocumentationTests.exampleApp()
        let webSection = #""web": {"appleAppId": "\#(Self.appID)", "caFile": "\#(web.ca.certificate)"},"#
        let app = example.replacingOccurrences(of: "https://notes.example.com/", with: "https://\(web.host)/")
            .replacingOccurrences(of: #""links": ["#, with: webSection + "\n  " + #""links": ["#)
        try web.writeApp("com.example.Notes.json", app)
        return web
    }

    @Test func everyWebExampleRunsAndPrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for (_, block) in try DocumentationDesktopExampleTests.blocks(in: document, marked: "web") {
                let web = try world()
                defer { try? FileManager.default.removeItem(at: web.world.root) }
                for step in block {
                    #expect(step.words.first == "linkd")
                    // The guide's host in a command is the server's.
                    let arguments = step.words.dropFirst().map {
                        $0.replacingOccurrences(of: "notes.example.com", with: web.host)
                    }
                    let result = try web.linkd(arguments)
                    // The guide's site has a certificate a public CA signed; this one's is the test CA's, which the
                    // world's app trusts through its own caFile, and so is verified for that app alone.
                    let printed = result.stdout.replacingOccurrences(of: web.host, with: "notes.example.com")
                        .replacingOccurrences(of: " alone, through its own caFile or proxy", with: "")
                    #expect(printed == step.output, "\(document): $ \(step.words.joined(separator: " "))")
                    ran += 1
                }
            }
        }
        #expect(ran >= 2, "the guides show at least two web examples")
    }
}
