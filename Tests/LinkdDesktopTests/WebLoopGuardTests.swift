import Foundation
import LinkdDesktop
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
}
