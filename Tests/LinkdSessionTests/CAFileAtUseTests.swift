import Foundation
import LinkdSession
import LinkdTestSupport
import Testing

/// A `caFile` is checked again at each request that uses it (it may have changed since the configuration was read):
/// one another user can change is not believed, and nothing is sent.
@Suite(.ownThread, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct CAFileAtUseTests {
    @Test func aCAFileOthersCanChangeSendsNothingAndOneOnlyItsOwnerCanChangeWorks() async throws {
        let ca = try TestCA.make()
        let server = try TestHTTPServer { _ in DoubleResponse(status: 200, body: Data("{}".utf8)) }
        let proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-use-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ca.pem").path
        try FileManager.default.copyItem(atPath: ca.certificate, toPath: file)
        let request = HTTPRequest(method: "GET", url: proxy.baseURL + "/x")

        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)
        await #expect(
            throws: TransportError.unreachable(
                host: "127.0.0.1",
                "the CA file (caFile) is not trusted: '\(file)' is writable by its group and others"
            )
        ) {
            try await CurlTransport(caFile: file).send(request)
        }
        #expect(server.requests.isEmpty)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let response = try await CurlTransport(caFile: file).send(request)
        #expect(response.status == 200)
        #expect(server.requests.count == 1)
    }
}
