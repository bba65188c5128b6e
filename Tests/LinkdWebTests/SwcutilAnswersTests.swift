import LinkdRouting
import LinkdWeb
import Testing

/// The answers of Apple's own matcher (`swcutil verify` on macOS) that st-tech/universal-links-test records in its
/// tests (`tests/node.test.ts` at 3b389f1, MIT License, © ZOZO, Inc.: each case asserts that `swcutil` and the
/// project's simulator give the same answer): for a file and a path, which app ids the link opens (`match`) or is kept
/// from (`block`). linkd's reading gives the same answer for each, the file's order and `appIDs` over `appID` among
/// them.
@Suite struct SwcutilAnswersTests {
    /// What `swcutil` answered, per app id; an app id not named: the link is not the app's.
    enum Answer: Sendable {
        case match
        case block
    }

    static func details(_ entries: String...) -> String {
        #"{"applinks": {"details": [\#(entries.joined(separator: ", "))]}}"#
    }

    static let search = #"{"appID": "HOGE.com.example.app", "components": [{"/": "/search/"}]}"#

    @Test(
        arguments: [
            ("empty rule", details(#"{"appID": "HOGE.com.example.app", "components": []}"#), "/", [String: Answer]()),
            ("should match path", details(search), "/search/", ["HOGE.com.example.app": .match]),
            (
                "should exclude",
                details(
                    ##"{"appID": "HOGE.com.example.app", "components": [{"#": "nondeeplinking", "exclude": true}, "##
                        + #"{"/": "/search/"}]}"#
                ),
                "/search/#nondeeplinking", ["HOGE.com.example.app": .block]
            ),
            ("default case sensitive", details(search), "/SEARCH/", [:]),
            (
                "case insensitive",
                details(
                    #"{"appID": "HOGE.com.example.app", "components": [{"/": "/search/", "caseSensitive": false}]}"#
                ),
                "/SEARCH/", ["HOGE.com.example.app": .match]
            ),
            (
                "should match path with query string and hash", details(search), "/search/?q=foo#bar",
                ["HOGE.com.example.app": .match]
            ),
            (
                "should match query string",
                details(#"{"appID": "HOGE.com.example.app", "components": [{"?": "key=value"}]}"#),
                "/?key=value", ["HOGE.com.example.app": .match]
            ),
            (
                "should not match query string with extras",
                details(#"{"appID": "HOGE.com.example.app", "components": [{"?": "key=value"}]}"#),
                "/?key=value&extra=value",
                [:]
            ),
            (
                "should match query string with key-value object",
                details(#"{"appID": "HOGE.com.example.app", "components": [{"?": {"key": "value"}}]}"#), "/?key=value",
                ["HOGE.com.example.app": .match]
            ),
            (
                "should match query string with key-value object with extras",
                details(#"{"appID": "HOGE.com.example.app", "components": [{"?": {"key": "value"}}]}"#),
                "/?key=value&extra=value", ["HOGE.com.example.app": .match]
            ),
            (
                "should ignore appID if appIDs provided",
                details(#"{"appID": "FOO.com.example.app", "appIDs": [], "components": [{"/": "/search/"}]}"#),
                "/search/",
                [:]
            ),
            (
                "should match multiple appIDs (appID is ignored)",
                details(
                    #"{"appID": "FOO.com.example.app", "appIDs": ["BAR.com.example.app", "BAZ.com.example.app"], "#
                        + #""components": [{"/": "/search/"}]}"#
                ),
                "/search/", ["BAR.com.example.app": .match, "BAZ.com.example.app": .match]
            ),
            (
                "should handle multiple details",
                details(
                    search,
                    #"{"appID": "HOGE.com.example.app", "components": [{"/": "/search/", "exclude": true}]}"#
                ),
                "/search/", ["HOGE.com.example.app": .match]
            ),
        ] as [(String, String, String, [String: Answer])]
    )
    func linkdAnswersAsSwcutilDoes(_ name: String, _ file: String, _ path: String, _ answers: [String: Answer]) throws {
        let association = try AppSiteAssociation(parsing: Array(file.utf8))
        let link = try LinkURL(parsing: "https://example.com" + path)
        for appID in ["HOGE.com.example.app", "FOO.com.example.app", "BAR.com.example.app", "BAZ.com.example.app"] {
            let expected: AppSiteAssociation.Decision =
                switch answers[appID] {
                case .match?: .opens
                case .block?: .excluded
                case nil: .notListed
                }
            #expect(association.decision(for: appID, link: link) == expected, "\(name): \(appID)")
        }
    }

    /// `swcutil` answers no app for a file with no `applinks`, one that is not JSON, and one whose only entry names no
    /// app; linkd refuses each whole, so that no link of the host is an app's.
    @Test(arguments: ["{}", "{[]}", details(#"{"components": [{"/": "/search/"}]}"#)])
    func aFileThatListsNoAppOpensNoLink(_ file: String) {
        #expect(throws: AssociationFileError.self) { try AppSiteAssociation(parsing: Array(file.utf8)) }
    }
}
