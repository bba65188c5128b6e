import LinkdFormats
package import LinkdSystem

/// What keeps a web link from going round between linkd and a browser (or app) that hands links on to "the default
/// browser", which is linkd: a link linkd passed to the browser that comes back within 10 s goes to the browser again
/// without routing, and the third time within 10 s linkd stops.
///
/// It keeps a keyed hash of each link it passed on (HMAC-SHA256 under a key of its own, made at random), never the
/// link, with the time, in the runtime folder: `web-passes` (0600), pruned of what is past the window at each write.
/// Two clicks at once take turns (a lock on `web-passes.lock`).
package struct WebLoopGuard: Sendable {
    /// What to do with a link that arrives.
    package enum Verdict: Sendable, Equatable {
        /// It has not been passed on lately: route it.
        case route
        /// It came back once: to the browser again, without routing.
        case browserAgain
        /// It came back a second time: stop, and say so.
        case stop
    }

    /// How long a link passed on counts.
    package static let window = 10.0

    /// The runtime folder (`$XDG_RUNTIME_DIR/linkd`).
    let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    private var passesPath: String { folder + "/web-passes" }
    private var keyPath: String { folder + "/web-passes.key" }

    /// The verdict for `link` at `now` (seconds since 1970); when it goes to the browser (``Verdict/route`` being
    /// the caller's to record once it has decided, ``Verdict/browserAgain`` here), the pass is recorded.
    ///
    /// - Throws: ``SystemError`` when the runtime folder cannot be written.
    package func arrive(_ link: String, now: Double) throws(SystemError) -> Verdict {
        try makeFolder()
        return try FileSystem.withExclusiveLock(passesPath + ".lock") { () throws(SystemError) -> Verdict in
            let mark = try self.mark(of: link)
            let recent = passes(since: now - Self.window)
            switch recent.count(where: { $0.mark == mark }) {
            case 0: return .route
            case 1:
                try write(recent + [(mark, now)])
                return .browserAgain
            default: return .stop
            }
        }
    }

    /// Records that `link` was passed to the browser at `now`.
    ///
    /// - Throws: ``SystemError`` when the runtime folder cannot be written.
    package func recordPass(of link: String, now: Double) throws(SystemError) {
        try makeFolder()
        try FileSystem.withExclusiveLock(passesPath + ".lock") { () throws(SystemError) in
            let mark = try self.mark(of: link)
            try write(passes(since: now - Self.window) + [(mark, now)])
        }
    }

    /// The runtime folder, made (0700) when it is not there yet.
    private func makeFolder() throws(SystemError) {
        if FileSystem.permissions(of: folder) == nil { try FileSystem.makePrivateDirectory(folder) }
    }

    /// The passes recorded since `start`: lines `MARK MILLISECONDS`, read as bytes (a click reads them all, so a
    /// line costs a few comparisons, not a walk of its characters); lines that are not such are left out.
    private func passes(since start: Double) -> [(mark: String, time: Double)] {
        let bytes = FileSystem.contents(of: passesPath, limit: 1 << 20) ?? []
        let earliest = Int64((start * 1_000).rounded(.down))
        var passes: [(mark: String, time: Double)] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")), space - line.startIndex == 64 else { continue }
            var milliseconds: Int64 = 0
            var digits = 0
            for byte in line[(space + 1)...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else {
                    digits = -1
                    break
                }
                milliseconds = milliseconds * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
            }
            guard digits > 0, milliseconds >= earliest else { continue }
            passes.append((String(decoding: line[..<space], as: UTF8.self), Double(milliseconds) / 1_000))
        }
        return passes
    }

    private func write(_ passes: [(mark: String, time: Double)]) throws(SystemError) {
        let text = passes.map { "\($0.mark) \(Int64(($0.time * 1_000).rounded(.down)))\n" }.joined()
        try FileSystem.writeAtomically(Array(text.utf8), to: passesPath)
    }

    /// The keyed hash of `link`, in hex, under this user's key (made at random the first time).
    private func mark(of link: String) throws(SystemError) -> String {
        var key = FileSystem.contents(of: keyPath, limit: 64) ?? []
        if key.count != 32 {
            var generator = SystemRandomNumberGenerator()
            key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try FileSystem.writeAtomically(key, to: keyPath)
        }
        return SHA256.hmac(key: key, message: Array(link.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}
