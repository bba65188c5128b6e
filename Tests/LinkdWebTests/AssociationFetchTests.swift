import Foundation
import LinkdSession
import LinkdSystem
import LinkdTestSupport
import LinkdWeb
import Testing

/// Association files fetched as the platforms fetch them, from a real HTTPS server of the tests (the test CA's
/// certificate): a good file is kept; a redirect, a file over its limit, a slow answer, garbage, a missing file and an
/// untrusted certificate each end as a failure that says why.
@Suite(.disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct AssociationFetchTests {
    static let aasa = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.notes", "paths": ["/reset"]}]}}"#

    /// A server answering `answer` for every request, behind the TLS proxy; the fetch's result for `file`.
    private func fetch(
        _ file: AssociationFile = .apple,
        trusted: Bool = true,
        timeLimit: Duration = .seconds(5),
        answer: @escaping @Sendable (ReceivedRequest) -> DoubleResponse
    ) async throws -> (Result<AssociationFetch, AssociationFailure>, [String]) {
        let ca = try TestCA.make()
        let server = try TestHTTPServer(handler: answer)
        let proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        let fetcher = AssociationFetcher(caFile: trusted ? ca.certificate : nil, timeLimit: timeLimit)
        let result = await fetcher.fetch(file, host: "127.0.0.1:\(proxy.port)")
        return (result, server.requests.map { $0.method + " " + $0.target })
    }

    private func failure(_ result: Result<AssociationFetch, AssociationFailure>) -> String? {
        if case .failure(let failure) = result { failure.reason } else { nil }
    }

    @Test func aGoodFileIsFetchedFromItsWellKnownPath() async throws {
        let (result, requests) = try await fetch { _ in DoubleResponse(status: 200, body: Data(Self.aasa.utf8)) }
        #expect(try result.get() == AssociationFetch(bytes: Array(Self.aasa.utf8), path: AssociationFile.apple.path))
        #expect(requests == ["GET /.well-known/apple-app-site-association"])
        let (android, paths) = try await fetch(.android) { _ in DoubleResponse(status: 200, body: Data("[]".utf8)) }
        #expect(try android.get().bytes == Array("[]".utf8))
        #expect(paths == ["GET /.well-known/assetlinks.json"])
    }

    /// Where `/.well-known/` has no Apple file (a 404), it is fetched from the root with the same rules, as Apple's
    /// devices read it there; any other answer at `/.well-known/` ends the fetch, and assetlinks.json has no root.
    @Test func appleFileAtTheRootIsFetchedWhenTheWellKnownPathHasNone() async throws {
        let atRoot = { @Sendable (request: ReceivedRequest) in
            request.path == "/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa.utf8)) : DoubleResponse(status: 404)
        }
        let (result, requests) = try await fetch(answer: atRoot)
        #expect(try result.get() == AssociationFetch(bytes: Array(Self.aasa.utf8), path: "/apple-app-site-association"))
        #expect(requests == ["GET /.well-known/apple-app-site-association", "GET /apple-app-site-association"])
        let (android, paths) = try await fetch(.android, answer: atRoot)
        #expect(failure(android) == "HTTP 404")
        #expect(paths == ["GET /.well-known/assetlinks.json"])
        let (gone, tried) = try await fetch { request in
            request.path == "/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa.utf8)) : DoubleResponse(status: 410)
        }
        #expect(failure(gone) == "HTTP 410")
        #expect(tried.count == 1)
    }

    /// A root that is down too keeps the last good file (an outage), one that has no file either withdraws it.
    @Test(arguments: [
        (503, "HTTP 404 (and HTTP 503 at /apple-app-site-association)", false),
        (404, "HTTP 404 (and HTTP 404 at /apple-app-site-association)", true),
    ])
    func aRootWithoutTheFileSaysSoForBothPaths(status: Int, reason: String, withdraws: Bool) async throws {
        let (result, _) = try await fetch { request in
            DoubleResponse(status: request.path == "/apple-app-site-association" ? status : 404)
        }
        guard case .failure(let failure) = result else {
            Issue.record("a file was taken")
            return
        }
        #expect(failure.reason == reason)
        #expect(failure.withdraws == withdraws)
    }

    /// An assetlinks.json's `include` statements are followed by the same rules, one level deep: each included file
    /// is fetched (an include of an included file is not), and one that fails is kept as its failure beside the rest.
    @Test func anAssetLinksIncludesAreFetchedOneLevelDeep() async throws {
        let statement = AssetLinksTests.statement("com.example.droid")
        let ca = try TestCA.make()
        let port = Lock(0)  // the TLS proxy's, known once it runs
        let server = try TestHTTPServer { request in
            let base = "https://127.0.0.1:\(port.withLock { $0 })"
            return switch request.path {
            case "/.well-known/assetlinks.json":
                DoubleResponse(
                    status: 200,
                    body: Data(#"[{"include": "\#(base)/a.json"}, {"include": "\#(base)/gone.json"}]"#.utf8)
                )
            case "/a.json":
                DoubleResponse(status: 200, body: Data(#"[\#(statement), {"include": "\#(base)/deeper.json"}]"#.utf8))
            case "/deeper.json": DoubleResponse(status: 200, body: Data("[\(statement)]".utf8))
            default: DoubleResponse(status: 404)
            }
        }
        let proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        port.withLock { $0 = Int(proxy.port) }
        let result = await AssociationFetcher(caFile: ca.certificate).fetch(.android, host: "127.0.0.1:\(proxy.port)")
        let fetch = try result.get()
        let base = "https://127.0.0.1:\(proxy.port)"
        #expect(fetch.included.map(\.address) == ["\(base)/a.json", "\(base)/gone.json"])
        #expect(fetch.included.last?.result == .failure(AssociationFailure("HTTP 404", withdraws: true)))
        #expect(server.requests.map(\.target) == ["/.well-known/assetlinks.json", "/a.json", "/gone.json"])
        var links = try AssetLinks(parsing: fetch.bytes)
        links.add(fetch.included)
        #expect(links.lists("com.example.droid"))
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let (result, requests) = try await fetch { _ in
            DoubleResponse(status: 301, headers: [("Location", "https://127.0.0.1/elsewhere")])
        }
        #expect(failure(result)?.hasPrefix("redirected (HTTP 301)") == true)
        #expect(requests.count == 1)
    }

    @Test func aFileOverItsLimitIsRefused() async throws {
        let big = Data(repeating: UInt8(ascii: " "), count: 130 * 1_024)
        let (result, _) = try await fetch { _ in DoubleResponse(status: 200, body: big) }
        #expect(failure(result)?.contains("larger than 128 KiB") == true, "\(result)")
    }

    @Test func aSlowAnswerEndsAtTheTimeLimit() async throws {
        let (result, _) = try await fetch(timeLimit: .seconds(1)) { _ in
            Thread.sleep(forTimeInterval: 3)  // the double answers late on purpose
            return DoubleResponse(status: 200, body: Data(Self.aasa.utf8))
        }
        #expect(failure(result)?.contains("no answer within the time limit") == true, "\(result)")
    }

    @Test(arguments: [
        (DoubleResponse(status: 200, body: Data("<html>not here</html>".utf8)), "the file cannot be read: $: not JSON"),
        (
            DoubleResponse(status: 200, body: Data(#"{"webcredentials": {}}"#.utf8)),
            "the file cannot be read: $.applinks: missing"
        ),
        (DoubleResponse(status: 404), "HTTP 404"),
    ])
    func garbageOrNoFileIsAFailureThatSaysWhy(_ response: DoubleResponse, _ reason: String) async throws {
        let (result, _) = try await fetch { _ in response }
        #expect(failure(result)?.hasPrefix(reason) == true, "\(result)")
    }

    @Test func aCertificateNoTrustedCASignedIsRefused() async throws {
        let (result, requests) = try await fetch(trusted: false) { _ in
            DoubleResponse(status: 200, body: Data(Self.aasa.utf8))
        }
        #expect(failure(result)?.contains("certificate") == true, "\(result)")
        #expect(requests.isEmpty)
    }

    /// What the site answers decides whether the last good file goes: the site's own refusal withdraws it, a failure
    /// on the way does not (the platforms keep theirs through an outage).
    @Test(arguments: [
        (301, true), (302, true), (400, true), (403, true), (404, true), (410, true), (500, false), (502, false),
        (503, false),
    ])
    func aRefusalOfTheSiteWithdrawsTheFileAndAnOutageDoesNot(status: Int, withdraws: Bool) async throws {
        let (result, _) = try await fetch { _ in DoubleResponse(status: status) }
        guard case .failure(let failure) = result else {
            Issue.record("HTTP \(status) was taken as a file")
            return
        }
        #expect(failure.withdraws == withdraws, "HTTP \(status): \(failure.reason)")
    }

    @Test func anUnreadableFileWithdrawsAndNoConnectionOrTimeDoesNot() async throws {
        let (garbage, _) = try await fetch { _ in DoubleResponse(status: 200, body: Data("<html>".utf8)) }
        #expect((try? garbage.get()) == nil)
        if case .failure(let failure) = garbage { #expect(failure.withdraws) }
        let (slow, _) = try await fetch(timeLimit: .seconds(1)) { _ in
            Thread.sleep(forTimeInterval: 3)  // the double answers late on purpose
            return DoubleResponse(status: 200, body: Data(Self.aasa.utf8))
        }
        if case .failure(let failure) = slow { #expect(!failure.withdraws) } else { Issue.record("a late answer") }
        let port = try ClosedPort()
        defer { port.close() }
        let refused = await AssociationFetcher().fetch(.apple, host: "127.0.0.1:\(port.port)")
        if case .failure(let failure) = refused { #expect(!failure.withdraws) } else { Issue.record("no connection") }
    }
}
