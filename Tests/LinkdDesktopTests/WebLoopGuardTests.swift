import Foundation
import LinkdDesktop
import LinkdSystem
import Testing

/// The loop rule of web links: a link passed to the browser that comes back within 10 s goes to the browser again,
/// the third arrival stops, another link or a later time is routed as usual, and what is kept names no link.
@Suite struct WebLoopGuardTests {
    static let link = "https://bounce.example.com/watch?v=secret-video-id"

    private func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)/linkd").path
    }

    @Test func aLinkThatComesBackGoesToTheBrowserAgainThenStops() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        #expect(try guarding.arrive(Self.link, now: 1_000) == .route)
        try guarding.recordPass(of: Self.link, now: 1_000)
        #expect(try guarding.arrive(Self.link, now: 1_002) == .browserAgain)
        #expect(try guarding.arrive(Self.link, now: 1_004) == .stop)
        #expect(try guarding.arrive("https://other.example.com/", now: 1_004) == .route)
        // Past the window of the passes, the link is routed as any.
        #expect(try guarding.arrive(Self.link, now: 1_013) == .route)
    }

    @Test func whatIsKeptNamesNeitherTheLinkNorItsHost() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        try guarding.recordPass(of: Self.link, now: 1_000)
        _ = try guarding.arrive(Self.link, now: 1_001)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("bounce") && !text.contains("secret-video-id"), "\(name)")
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        // A second guard over the same folder (the next `linkd open`) finds the same mark.
        #expect(try WebLoopGuard(folder: folder).arrive(Self.link, now: 1_002) == .stop)
    }

    @Test func passesAreAppendedAndThoseOutsideTheWindowPruned() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        // A line that is not a pass is passed over, never counted.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("not a pass\n\(String(repeating: "0", count: 64)) 12x\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/web-passes")
        )
        let size = { (try? FileManager.default.attributesOfItem(atPath: folder + "/web-passes")[.size] as? Int) ?? 0 }
        try guarding.recordPass(of: Self.link, now: 1_000)
        #expect(try guarding.arrive(Self.link, now: 1_001) == .browserAgain)
        // Two thousand passes of other links, a second apart: the file is pruned to the window each time it grows
        // past its bound, and a link passed long ago is routed as any.
        var largest = 0
        for second in 0..<2_000 {
            try guarding.recordPass(of: "https://example.org/\(second)", now: 2_000 + Double(second))
            largest = max(largest, size())
        }
        #expect(largest <= Int(WebLoopGuard.pruningSize) + 80)
        #expect(size() < Int(WebLoopGuard.pruningSize))
        #expect(try guarding.arrive(Self.link, now: 4_000) == .route)
        #expect(try guarding.arrive("https://example.org/1995", now: 4_000) == .browserAgain)
    }

    @Test func arrivalsAtOnceTakeTurns() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        try guarding.recordPass(of: Self.link, now: 1_000)
        let verdicts = await withTaskGroup(of: WebLoopGuard.Verdict?.self) { group in
            for _ in 0..<2 { group.addTask { try? guarding.arrive(Self.link, now: 1_001) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(verdicts.compactMap { $0 }.sorted { "\($0)" < "\($1)" } == [.browserAgain, .stop])
    }

    /// Only a link the browser linkd started hands back counts: the arriving process descends from it (or from its
    /// session); the person clicking the same link again, from their mail client, is routed every time.
    @Test func onlyALinkHandedBackByTheBrowserLinkdStartedCounts() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        let this = try #require(ProcessIdentity.of(CurrentProcess.id))
        let elsewhere = ProcessIdentity(pid: this.pid, startTime: this.startTime + 1)  // the pid, but another process
        // A browser that is no ancestor: the person's clicks, four in a second, are routed each time.
        try guarding.recordPass(of: Self.link, now: 1_000, browser: elsewhere)
        for tenth in 1...4 {
            #expect(try guarding.arrive(Self.link, now: 1_000 + Double(tenth) / 10, browser: { elsewhere }) == .route)
            try guarding.recordPass(of: Self.link, now: 1_000 + Double(tenth) / 10, browser: elsewhere)
        }
        // This process as the browser: what it hands back counts, and the third arrival stops.
        try guarding.recordPass(of: "https://other.example/", now: 2_000, browser: this)
        #expect(try guarding.arrive("https://other.example/", now: 2_001, browser: { this }) == .browserAgain)
        #expect(try guarding.arrive("https://other.example/", now: 2_002, browser: { this }) == .stop)
        // A browser whose session this process is in counts too (its descendants may have forked twice on the way).
        let lineage = ProcessLineage()
        let leader = ProcessIdentity(pid: try #require(lineage.sessions.first), startTime: 1)
        try guarding.recordPass(of: "https://third.example/", now: 3_000, browser: leader)
        #expect(try guarding.arrive("https://third.example/", now: 3_001) == .browserAgain)
    }

    /// The lineage is read only when the link was passed lately: a new link costs no walk through /proc.
    @Test func theLineageIsReadOnlyForALinkPassedLately() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let guarding = WebLoopGuard(folder: folder)
        let this = try #require(ProcessIdentity.of(CurrentProcess.id))
        try guarding.recordPass(of: Self.link, now: 1_000, browser: this)
        var reads = 0
        let counting = { () -> ProcessLineage in
            reads += 1
            return ProcessLineage()
        }
        #expect(try guarding.arrive("https://new.example/", now: 1_001, lineage: counting) == .route)
        #expect(reads == 0)
        #expect(try guarding.arrive(Self.link, now: 1_001, lineage: counting) == .browserAgain)
        #expect(reads == 1)
    }
}
