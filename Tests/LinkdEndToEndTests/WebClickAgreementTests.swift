import Foundation
import LinkdSystem
import LinkdTestSupport
import Testing

/// `linkd route --web` says where a click goes, and a click (`gio open`, after `linkd register --web`) goes there: for
/// an app its site's apple-app-site-association admits, and one whose assetlinks.json includes the statement that
/// admits it — with a fingerprint the app expects, narrowed by Android 15's dynamic rules — beside a statement that
/// cannot be read, every link reaches the app or the browser as route said, and route names the file and rule.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct WebClickAgreementTests {
    static let appID = "ABCDE12345.com.example.web"
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let aasa = """
        {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
          {"/": "/open/private*", "exclude": true}, {"/": "/open/*"}]}]}}
        """
    static let statement = """
        {"relation": ["delegate_permission/common.handle_all_urls"],
         "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [
           {"/": "/droid/private/*", "exclude": true}, {"/": "/droid/*"}]}},
         "target": {"namespace": "android_app", "package_name": "com.example.droid",
                    "sha256_cert_fingerprints": ["\(fingerprint)"]}}
        """

    @Test func routeWebSaysWhereEachClickGoes() throws {
        let site = Lock("")  // the server's own host, known once its proxy runs
        let web = try WebClickWorld { request in
            let host = site.withLock { $0 }
            return switch request.path {
            case "/.well-known/apple-app-site-association": DoubleResponse(status: 200, body: Data(Self.aasa.utf8))
            case "/.well-known/assetlinks.json":
                DoubleResponse(status: 200, body: Data(#"[{}, {"include": "https://\#(host)/more.json"}]"#.utf8))
            case "/more.json": DoubleResponse(status: 200, body: Data("[\(Self.statement)]".utf8))
            default: DoubleResponse(status: 404)
            }
        }
        site.withLock { $0 = web.host }
        let record = "\(web.world.root.path)/record.sh"
        try web.writeApp(
            "web.json",
            """
            {"app": "com.example.Web", "web": {"appleAppId": "\(Self.appID)", "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/open/{id}", "action": {"exec": ["\(record)", "--open-link"]}}]}
            """
        )
        try web.writeApp(
            "droid.json",
            """
            {"app": "com.example.Droid",
             "web": {"androidPackage": "com.example.droid", "androidFingerprints": ["\(Self.fingerprint)"],
                     "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/droid/{path...}",
                        "action": {"exec": ["\(record)", "--open-link"]}}]}
            """
        )
        let registered = try web.linkd(["register", "--web"])
        #expect(registered.status == 0, "\(registered)")
        let links: [(path: String, app: String?, why: String)] = [
            ("/open/42", "com.example.Web", "admits it for \(Self.appID) by $.applinks.details[0].components[1]"),
            ("/open/private-7", nil, "excludes the link for \(Self.appID) (by $.applinks.details[0].components[0])"),
            ("/droid/a/b", "com.example.Droid", "more.json $[0].relation_extensions.…dynamic_app_link_components[1]"),
            ("/droid/private/x", nil, "assetlinks.json's rules exclude the link for com.example.droid"),
            ("/other/1", nil, "no app claims the link"),
        ]
        var (toApp, toBrowser) = (0, 0)
        for (path, app, why) in links {
            let link = "https://\(web.host)\(path)"
            let routed = try web.linkd(["route", "--web", link])
            let opens = app.map { "  click:  opens app \($0)\n" } ?? "  click:  opens the browser\n"
            #expect(routed.stdout.contains(opens), "\(path): \(routed)")
            #expect(routed.stdout.contains(why), "\(path): \(routed)")
            #expect(routed.status == (app == nil ? 1 : 0), "\(path): \(routed)")
            #expect(try web.click(link) == 0)
            if app == nil {
                toBrowser += 1
                #expect(web.browserStarts(count: toBrowser).last == ["--new-tab", link], "\(path)")
            } else {
                toApp += 1
                #expect(web.world.waitUntil(.seconds(10)) { web.world.receivedPayloads().count == toApp }, "\(path)")
                #expect(web.world.receivedPayloads().last?["url"] as? String == link)
            }
        }
        #expect(web.world.receivedPayloads().count == 2)
        #expect(web.browserStarts(count: toBrowser).count == 3)
    }
}
