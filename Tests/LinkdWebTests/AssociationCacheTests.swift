import Foundation
import LinkdSession
import LinkdWeb
import Testing

/// The cache of association files: fresh for a day, then used while it is fetched again for up to a week, a failed
/// fetch kept beside the last good file and tried again after an hour, every file 0600 and inside the cache folder.
@Suite struct AssociationCacheTests {
    static let file = Array(#"{"applinks": {"details": []}}"#.utf8)
    static let day = 86_400.0

    private func cache() -> AssociationCache {
        AssociationCache(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        )
    }

    @Test func aFileIsFreshForADayThenStaleForAWeek() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let host = "notes.example.com"
        #expect(cache.stored(.apple, host: host, now: 1_000) == .missing("not fetched yet"))
        #expect(cache.isDue(.apple, host: host, now: 1_000))
        try cache.record(.success(Self.file), of: .apple, host: host, now: 1_000)
        #expect(cache.stored(.apple, host: host, now: 1_000 + Self.day - 1) == .fresh(Self.file))
        #expect(!cache.isDue(.apple, host: host, now: 1_000 + Self.day - 1))
        #expect(cache.isDue(.apple, host: host, now: 1_000 + Self.day))
        #expect(cache.stored(.apple, host: host, now: 1_000 + 2 * Self.day) == .stale(Self.file, failure: nil))
        #expect(
            cache.stored(.apple, host: host, now: 1_000 + 8 * Self.day) == .missing("the last good file is too old")
        )
        #expect(cache.stored(.android, host: host, now: 1_000) == .missing("not fetched yet"))
    }

    @Test func aFailedFetchKeepsTheLastGoodFileAndIsTriedAgainAfterAnHour() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let host = "notes.example.com"
        try cache.record(.success(Self.file), of: .apple, host: host, now: 0)
        try cache.record(.failure(AssociationFailure("HTTP 503")), of: .apple, host: host, now: 2 * Self.day)
        #expect(cache.stored(.apple, host: host, now: 2 * Self.day) == .stale(Self.file, failure: "HTTP 503"))
        #expect(!cache.isDue(.apple, host: host, now: 2 * Self.day + 3_599))
        #expect(cache.isDue(.apple, host: host, now: 2 * Self.day + 3_600))
        try cache.record(.success(Self.file), of: .apple, host: host, now: 2 * Self.day + 3_600)
        #expect(cache.stored(.apple, host: host, now: 2 * Self.day + 3_601) == .fresh(Self.file))
        // Never fetched, and failing: the reason is what is stored.
        try cache.record(.failure(AssociationFailure("HTTP 404")), of: .android, host: host, now: 0)
        #expect(cache.stored(.android, host: host, now: 1) == .missing("HTTP 404"))
    }

    /// The files an assetlinks.json includes are kept with it, each read back as fetched (its bytes or why not); a
    /// new fetch replaces them, and a refusal of the site withdraws them with the file, while an outage keeps them.
    @Test func includedFilesAreKeptWithTheirFile() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let host = "droid.example.com"
        let included = [
            AssetLinks.Included(address: "https://a.example/x.json", result: .success(Array("[]".utf8))),
            AssetLinks.Included(address: "https://b.example/y.json", result: .failure(AssociationFailure("HTTP 404"))),
        ]
        let fetch = AssociationFetch(bytes: Array("[]".utf8), path: AssociationFile.android.path, included: included)
        try cache.record(fetch: .success(fetch), of: .android, host: host, now: 0)
        #expect(cache.included(.android, host: host) == included)
        try cache.record(.failure(AssociationFailure("HTTP 503")), of: .android, host: host, now: 2 * Self.day)
        #expect(cache.included(.android, host: host) == included)
        let fewer = AssociationFetch(
            bytes: Array("[]".utf8),
            path: AssociationFile.android.path,
            included: [included[1]]
        )
        try cache.record(fetch: .success(fewer), of: .android, host: host, now: 3 * Self.day)
        #expect(cache.included(.android, host: host) == [included[1]])
        try cache.record(fetch: .success(fetch), of: .android, host: host, now: 4 * Self.day)
        try cache.record(
            .failure(AssociationFailure("HTTP 410", withdraws: true)),
            of: .android,
            host: host,
            now: 5 * Self.day
        )
        #expect(cache.included(.android, host: host).isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.folder + "/" + host)
        #expect(names == ["assetlinks.json.state"], "\(names)")
    }

    @Test(arguments: ["127.0.0.1:8443", "Notes.Example.com", "../../escape", "a/b"])
    func everyFileIsPrivateAndInsideTheCacheFolder(_ host: String) throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        try cache.record(.success(Self.file), of: .apple, host: host, now: 0)
        #expect(cache.stored(.apple, host: host, now: 1) == .fresh(Self.file))
        let folders = try FileManager.default.contentsOfDirectory(atPath: cache.folder)
        #expect(folders.count == 1 && !folders[0].contains("/") && !folders[0].hasPrefix("."), "\(folders)")
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.folder + "/" + folders[0]) {
            let path = cache.folder + "/" + folders[0] + "/" + name
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test func aRefusalOfTheSiteWithdrawsTheLastGoodFileAtOnce() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let host = "notes.example.com"
        for (fetched, refused) in [(0.0, 2 * Self.day), (10 * Self.day, 10 * Self.day + 3_600)] {
            try cache.record(.success(Self.file), of: .apple, host: host, now: fetched)
            let withdrawal = AssociationFailure("HTTP 410", withdraws: true)
            try cache.record(.failure(withdrawal), of: .apple, host: host, now: refused)
            #expect(cache.stored(.apple, host: host, now: refused) == .missing("HTTP 410"))
            #expect(cache.stored(.apple, host: host, now: refused + 1) == .missing("HTTP 410"))
            #expect(!cache.isDue(.apple, host: host, now: refused + 3_599))
            #expect(cache.isDue(.apple, host: host, now: refused + 3_600))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder + "/" + host)
        #expect(files == ["apple-app-site-association.state"], "the withdrawn file is gone from the disk too")
    }

    /// Hosts that differ are kept in folders that differ: a port is not a plain name's `_`, hex is not a plain name,
    /// and an app's own trust is a folder of its own.
    @Test func noTwoHostsOrTrustsShareAFolder() throws {
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.folder) }
        let a = AssociationTrust(app: "com.example.A", caFile: "/etc/ca.pem", proxy: nil)
        let b = AssociationTrust(app: "com.example.B", caFile: "/etc/ca.pem", proxy: nil)
        let sources: [(host: String, trust: AssociationTrust?)] = [
            ("h:8443", nil), ("h_8443", nil), ("[::1]:8443", nil), ("x-5b3a3a315d3a38343433", nil),
            ("=5b3a3a315d3a38343433", nil), ("h", nil), ("h", a), ("h", b),
        ]
        for (index, source) in sources.enumerated() {
            try cache.record(.success([UInt8(index)]), of: .apple, host: source.host, trust: source.trust, now: 0)
        }
        for (index, source) in sources.enumerated() {
            #expect(
                cache.stored(.apple, host: source.host, trust: source.trust, now: 1) == .fresh([UInt8(index)]),
                "\(source)"
            )
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).count == sources.count)
        #expect(AssociationTrust(app: "com.example.A", caFile: nil, proxy: nil) == nil, "the system's trust is shared")
    }
}
