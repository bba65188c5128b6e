import LinkdWeb
import Testing

/// The reading of assetlinks.json: the packages a host lets handle all its links, other statements left alone, and a
/// broken statement named.
@Suite struct AssetLinksTests {
    @Test func thePackagesWithHandleAllURLsAreRead() throws {
        let text = """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.notes",
                         "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42"]}},
             {"relation": ["delegate_permission/common.get_login_creds"],
              "target": {"namespace": "android_app", "package_name": "com.example.passwords"}},
             {"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "web", "site": "https://example.com"}}]
            """
        let links = try AssetLinks(parsing: Array(text.utf8))
        #expect(links.packages == ["com.example.notes"])
        #expect(links.handlesAllLinks(for: "com.example.notes"))
        #expect(!links.handlesAllLinks(for: "com.example.passwords"))
    }

    @Test(arguments: [
        ("{}", "$", "expected an array"),
        ("[1]", "$[0]", "expected an object"),
        (#"[{"target": {}}]"#, "$[0].relation", "expected an array"),
        (
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app"}}]"#,
            "$[0].target.package_name", "non-empty string"
        ),
    ])
    func aBrokenStatementIsNamed(_ text: String, _ path: String, _ problem: String) {
        #expect {
            try AssetLinks(parsing: Array(text.utf8))
        } throws: { error in
            guard let error = error as? AssociationFileError else { return false }
            return error.path == path && error.problem.contains(problem)
        }
    }
}
