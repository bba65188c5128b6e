import Dispatch
import Foundation
import LinkdSystem
import Testing

/// Every lock of the package is a ``Lock``: a bare `Mutex` waits in the kernel where ThreadSanitizer cannot see it,
/// and `scripts/sanitize` then reports the state it protects as a race whenever two threads contend for it.
struct LockTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The lines of Swift code (comments left out) under `folder` that name `Mutex`, as `path:line`.
    static func bareMutexes(under folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && $0 != "LinkdSystem/Lock.swift" }
        // Spelled in two parts, so that this file does not find itself.
        let name = "Mut" + "ex"
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
                if code.contains(name + "<") || code.contains(name + "(") {
                    found.append("\(folder)/\(file):\(number + 1)")
                }
            }
        }
        return found
    }

    @Test(arguments: ["Sources", "Tests"])
    func noCodeTakesAnUnannouncedLock(_ folder: String) throws {
        let found = try Self.bareMutexes(under: folder)
        #expect(found.isEmpty, "\(found)")
    }

    @Test func contendedWritesAreAllKept() {
        let counts = Lock([Int](repeating: 0, count: 8))
        DispatchQueue.concurrentPerform(iterations: 800) { index in
            counts.withLock { $0[index % 8] += 1 }
        }
        #expect(counts.withLock { $0 } == [Int](repeating: 100, count: 8))
    }
}
