import LinkdConfig
import Testing

/// An app's `web` section: the identity its site's association files name, checked for its form, and how they are
/// fetched; every problem named by its JSON path.
@Suite struct WebConfigTests {
    private func decode(
        _ web: String,
        links: String = #"[{"match": "https://notes.example.com/reset", "action": "forward"}]"#
    )
        -> (AppConfig?, [String])
    {
        let text = #"{"app": "com.example.Notes", "links": \#(links), "web": \#(web)}"#
        var decoder = AppConfigDecoder(file: "notes.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = decoder.decode(Array(text.utf8))
        return (app, decoder.errors.map { "\($0.path): \($0.problem)" })
    }

    @Test func aWholeSectionIsRead() throws {
        let (app, errors) = decode(
            #"{"appleAppId": "ABCDE12345.com.example.notes", "androidPackage": "com.example.notes", "#
                + #""caFile": "/etc/linkd/ca.pem", "proxy": "socks5h://127.0.0.1:1080"}"#
        )
        #expect(errors.isEmpty)
        #expect(
            try #require(app).web
                == WebConfig(
                    appleAppID: "ABCDE12345.com.example.notes",
                    androidPackage: "com.example.notes",
                    caFile: "/etc/linkd/ca.pem",
                    proxy: "socks5h://127.0.0.1:1080"
                )
        )
    }

    @Test(arguments: [
        (#"{"appleAppId": "com.example.notes"}"#, "$.web.appleAppId: 'com.example.notes' is not an Apple app id"),
        (#"{"appleAppId": "abcde12345.com.example.notes"}"#, "$.web.appleAppId: 'abcde12345.com.example.notes' is not"),
        (#"{"androidPackage": "notes"}"#, "$.web.androidPackage: 'notes' is not an Android package name"),
        (#"{"androidPackage": "com.1example.notes"}"#, "$.web.androidPackage: 'com.1example.notes' is not"),
        (#"{"caFile": "/etc/ca.pem"}"#, "$.web: expected 'appleAppId' or 'androidPackage'"),
        (#"{"androidPackage": "com.example.notes", "caFile": "ca.pem"}"#, "$.web.caFile: expected an absolute path"),
        (#"{"androidPackage": "com.example.notes", "proxy": "ftp://p:21"}"#, "$.web.proxy: expected a proxy such as"),
        (#"{"androidPackage": "com.example.notes", "proxy": "http://p:3128/path"}"#, "$.web.proxy: expected a proxy"),
        (#"{"androidPackage": "com.example.notes", "appleAppID": "X"}"#, "$.web.appleAppID: unknown key; did you mean"),
        (#""com.example.notes""#, "$.web: expected an object"),
        (
            #"{"androidPackage": "com.example.notes", "androidFingerprints": []}"#,
            "$.web.androidFingerprints: expected a"
        ),
        (
            #"{"androidPackage": "com.example.notes", "androidFingerprints": ["\#(Self.fingerprint.lowercased())"]}"#,
            "$.web.androidFingerprints[0]: '\(Self.fingerprint.lowercased())' is no SHA-256 fingerprint"
        ),
        (
            #"{"androidPackage": "com.example.notes", "androidFingerprints": ["14:6D:E9"]}"#,
            "$.web.androidFingerprints[0]: '14:6D:E9' is no SHA-256 fingerprint"
        ),
        (
            #"{"appleAppId": "ABCDE12345.com.example.notes", "androidFingerprints": ["\#(Self.fingerprint)"]}"#,
            "$.web.androidFingerprints: names the fingerprints of 'androidPackage', which is not set"
        ),
    ])
    func aBadSectionIsNamedAndTheAppDoesNotLoad(_ web: String, _ problem: String) {
        let (app, errors) = decode(web)
        #expect(app == nil)
        #expect(errors.contains { $0.hasPrefix(problem) }, "\(errors)")
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// The fingerprints an app expects its site to list for its Android package, in assetlinks.json's own form.
    @Test func theExpectedFingerprintsAreRead() throws {
        let (app, errors) = decode(
            #"{"androidPackage": "com.example.notes", "androidFingerprints": ["\#(Self.fingerprint)"]}"#
        )
        #expect(errors.isEmpty)
        #expect(try #require(app).web?.androidFingerprints == [Self.fingerprint])
    }

    @Test func aSectionForAnAppWithoutHttpsLinksIsReportedAndTheAppLoads() {
        let (app, errors) = decode(
            #"{"androidPackage": "com.example.notes"}"#,
            links: #"[{"match": "notes://open", "action": "forward"}]"#
        )
        #expect(app?.web?.androidPackage == "com.example.notes")
        #expect(errors == ["$.web: the app claims no https link for it to apply to"])
    }
}
