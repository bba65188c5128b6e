import Foundation
import LinkdFormats
import LinkdSession
import Testing

/// The verifier store: one file per app (hex-named, 0600, in a 0700 folder), read as often as links come, removed
/// by the exchange that succeeds, none after it expires.
@Suite struct PKCEStoreTests {
    @Test func aStoredVerifierStaysUntilSpentAndNotAfterItExpires() async throws {
        try await withTemporaryStore { store in
            try store.store(Secret("verifier-one"), app: "../com.example.Notes", now: 1000)
            let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
            #expect(names == ["2e2e2f636f6d2e6578616d706c652e4e6f746573"])
            let attributes = try FileManager.default.attributesOfItem(atPath: store.directory + "/" + names[0])
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let folder = try FileManager.default.attributesOfItem(atPath: store.directory)
            #expect((folder[.posixPermissions] as? Int) == 0o700)
            // Reading it for a link leaves it: that link may not be the email's.
            let first = try #require(store.verifier(for: "../com.example.Notes", now: 1001))
            #expect(first.value.revealed() == "verifier-one")
            #expect(store.verifier(for: "../com.example.Notes", now: 1002)?.value == first.value)
            first.spend()
            #expect(store.verifier(for: "../com.example.Notes", now: 1003) == nil)
            try store.store(Secret("verifier-two"), app: "a", now: 1000)
            #expect(store.verifier(for: "a", now: 1000 + PKCEStore.lifetime) == nil)
            // Storing one sweeps the verifiers of flows that have expired.
            try store.store(Secret("verifier-three"), app: "b", now: 1000)
            try store.store(Secret("verifier-four"), app: "c", now: 1000 + PKCEStore.lifetime)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["63"])  // "c", hex-encoded
        }
    }

    @Test func spendingAVerifierANewerRequestReplacedKeepsTheNewerOne() async throws {
        try await withTemporaryStore { store in
            try store.store(Secret("older"), app: "a", now: 1000)
            let older = try #require(store.verifier(for: "a", now: 1001))
            try store.store(Secret("newer"), app: "a", now: 1002)
            older.spend()
            #expect(store.verifier(for: "a", now: 1003)?.value.revealed() == "newer")
            store.remove(Secret("newer"), app: "a")
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty)
        }
    }
}
