import Foundation
import LinkdTestSupport
import Testing

/// libcurl writes the TLS secrets of every connection to the file `SSLKEYLOGFILE` names; no linkd process lets it,
/// whatever the environment it was started with.
@Suite(.ownThread, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct KeyLogTests {
    @Test(arguments: ["SSLKEYLOGFILE", "GNUTLS_KEYLOGFILE"])
    func aCommandThatTalksToAServerWritesNoKeyLog(_ variable: String) throws {
        let site = try CheckWebTests.Site(web: #""appleAppId": "ABCDE12345.com.example.web""#) { _ in
            DoubleResponse(status: 200, body: Data(CheckWebTests.aasa("ABCDE12345.com.example.web").utf8))
        }
        let keyLog = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: keyLog) }
        let output = try site.check(environment: [variable: keyLog])
        #expect(output.stdout == "ok: 1 app, 1 link\n", "\(output)")  // it did talk TLS to the server
        #expect(!FileManager.default.fileExists(atPath: keyLog), "\(variable) was honoured")
    }
}
