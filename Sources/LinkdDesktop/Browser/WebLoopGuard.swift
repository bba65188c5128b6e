import LinkdFormats
package import LinkdSystem

/// What keeps a web link from going round between linkd and a browser (or app) that hands links on to "the default
/// browser", which is linkd: a link linkd passed to the browser that comes back within 10 s goes to the browser again
/// without routing, and the third time within 10 s linkd stops.
///
/// It keeps a keyed hash of each link it passed on (HMAC-SHA256 under a key of its own, made at random), never the
/// link, with the time, in the runtime folder: `web-passes` (0600), a line appended for each pass, pruned of what is
/// past the window when it has grown past ``pruningSize``.
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
            let recorded = FileSystem.contents(of: passesPath, limit: 1 << 20) ?? []
            switch Self.count(of: mark, in: recorded, since: now - Self.window) {
            case 0: return .route
            case 1:
                try write(Self.passes(in: recorded, since: now - Self.window) + [(mark, now)])
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
            guard case .success(let status) = FileSystem.status(of: passesPath), status.size >= Self.pruningSize else {
                return try FileSystem.append(Array(Self.line(mark, now).utf8), to: passesPath)
            }
            let recorded = FileSystem.contents(of: passesPath, limit: 1 << 20) ?? []
            try write(Self.passes(in: recorded, since: now - Self.window) + [(mark, now)])
        }
    }

    /// The size past which a pass is recorded by writing the file anew, without the passes past the window; below
    /// it, by appending one line.
    package static let pruningSize: Int64 = 64 * 1_024

    private static func line(_ mark: String, _ time: Double) -> String {
        "\(mark) \(Int64((time * 1_000).rounded(.down)))\n"
    }

    /// The runtime folder, made (0700) when it is not there yet.
    private func makeFolder() throws(SystemError) {
        if FileSystem.permissions(of: folder) == nil { try FileSystem.makePrivateDirectory(folder) }
    }

    /// Each line of `bytes` that records a pass since `start` (`MARK MILLISECONDS`, a mark of 64 hex digits): its
    /// mark, where it lies in `bytes`, and its time in milliseconds. A click reads them all, so a line costs a length
    /// check and its time's digits, and nothing is copied; lines that are not such are left out.
    static func forEachPass(
        in bytes: [UInt8],
        since start: Double,
        _ body: (UnsafeBufferPointer<UInt8>, Int64) -> Void
    ) {
        let earliest = Int64((start * 1_000).rounded(.down))
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            while lineStart < buffer.count {
                var lineEnd = lineStart
                while lineEnd < buffer.count && buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                let digits = lineEnd - lineStart - 65
                guard digits > 0, digits <= 15, buffer[lineStart + 64] == UInt8(ascii: " ") else { continue }
                var milliseconds: Int64 = 0
                var isNumber = true
                for byte in buffer[(lineStart + 65)..<lineEnd] {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                        isNumber = false
                        break
                    }
                    milliseconds = milliseconds * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                if isNumber, milliseconds >= earliest {
                    body(UnsafeBufferPointer(rebasing: buffer[lineStart..<(lineStart + 64)]), milliseconds)
                }
            }
        }
    }

    /// How many lines of `bytes` record a pass of `mark` since `start`.
    static func count(of mark: String, in bytes: [UInt8], since start: Double) -> Int {
        let wanted = Array(mark.utf8)
        var count = 0
        wanted.withUnsafeBufferPointer { wanted in
            forEachPass(in: bytes, since: start) { passed, _ in
                if passed.elementsEqual(wanted) { count += 1 }
            }
        }
        return count
    }

    /// The passes `bytes` records since `start`, for writing the file anew.
    private static func passes(in bytes: [UInt8], since start: Double) -> [(mark: String, time: Double)] {
        var passes: [(mark: String, time: Double)] = []
        forEachPass(in: bytes, since: start) { mark, milliseconds in
            passes.append((String(decoding: mark, as: UTF8.self), Double(milliseconds) / 1_000))
        }
        return passes
    }

    private func write(_ passes: [(mark: String, time: Double)]) throws(SystemError) {
        try FileSystem.writeAtomically(Array(passes.map { Self.line($0.mark, $0.time) }.joined().utf8), to: passesPath)
    }

    /// The keyed hash of `link`, in hex, under this user's key (made at random the first time).
    private func mark(of link: String) throws(SystemError) -> String {
        var key = FileSystem.contents(of: keyPath, limit: 64) ?? []
        if key.count != 32 {
            var generator = SystemRandomNumberGenerator()
            key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try FileSystem.writeAtomically(key, to: keyPath)
        }
        return Hex.lowercase(SHA256.hmac(key: key, message: Array(link.utf8)))
    }
}
