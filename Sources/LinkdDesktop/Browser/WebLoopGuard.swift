import LinkdFormats
package import LinkdSystem

/// What keeps a web link from going round between linkd and a browser (or app) that hands links on to "the default
/// browser", which is linkd: a link linkd passed to a browser that this browser hands back within 10 s goes to the
/// browser again without routing, and the third time within 10 s linkd stops. Only a link that comes from the
/// browser linkd started counts — the arriving `linkd open` descends from that process, or from its session
/// (``ProcessLineage``) — never the person clicking the same link again in their mail client.
///
/// It keeps a keyed hash of each link it passed on (HMAC-SHA256 under a key of its own, made at random), never the
/// link, with the time and the browser's process (pid and start time; none for a browser asked over D-Bus, whose
/// passes count whoever hands the link back), in a private folder (the runtime folder's `linkd`, else the cache's):
/// `web-passes` (0600), a line appended for each pass, pruned of what is past the window when it has grown past
/// ``pruningSize``. Two clicks at once take turns (a lock on `web-passes.lock`).
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

    /// The folder of its files (`$XDG_RUNTIME_DIR/linkd`, else `$XDG_CACHE_HOME/linkd`).
    let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    private var passesPath: String { folder + "/web-passes" }
    private var keyPath: String { folder + "/web-passes.key" }

    /// The verdict for `link` at `now` (seconds since 1970), counting the passes of the link to a browser that
    /// `lineage` (the arriving process's, read only when the link was passed lately) descends from. When it goes to
    /// the browser again (``Verdict/browserAgain``), the pass to `browser` (the process about to open it, asked only
    /// then; `nil` when unknown) is recorded here, so that two arrivals at once take turns; a ``Verdict/route`` is the caller's to
    /// record once it has decided.
    ///
    /// - Throws: ``SystemError`` when the folder cannot be written.
    package func arrive(
        _ link: String,
        now: Double,
        browser: () -> ProcessIdentity? = { nil },
        lineage: () -> ProcessLineage = { ProcessLineage() }
    ) throws(SystemError) -> Verdict {
        try makeFolder()
        return try FileSystem.withExclusiveLock(passesPath + ".lock") { () throws(SystemError) -> Verdict in
            let mark = try self.mark(of: link)
            let recorded = FileSystem.contents(of: passesPath, limit: 1 << 20) ?? []
            switch Self.count(of: mark, in: recorded, since: now - Self.window, handedBackBy: lineage) {
            case 0: return .route
            case 1:
                try write(Self.passes(in: recorded, since: now - Self.window) + [Pass(mark, now, browser())])
                return .browserAgain
            default: return .stop
            }
        }
    }

    /// Records that `link` was passed at `now` to `browser` (the process that opens it; `nil` when unknown, as for
    /// a browser asked over D-Bus).
    ///
    /// - Throws: ``SystemError`` when the folder cannot be written.
    package func recordPass(of link: String, now: Double, browser: ProcessIdentity? = nil) throws(SystemError) {
        try makeFolder()
        try FileSystem.withExclusiveLock(passesPath + ".lock") { () throws(SystemError) in
            let pass = Pass(try self.mark(of: link), now, browser)
            guard case .success(let status) = FileSystem.status(of: passesPath), status.size >= Self.pruningSize else {
                return try FileSystem.append(Array(pass.line.utf8), to: passesPath)
            }
            let recorded = FileSystem.contents(of: passesPath, limit: 1 << 20) ?? []
            try write(Self.passes(in: recorded, since: now - Self.window) + [pass])
        }
    }

    /// One pass of a link to a browser: `MARK MILLISECONDS`, then ` PID START` of the browser when it is known.
    struct Pass {
        var mark: String
        var time: Double
        var browser: ProcessIdentity?

        init(_ mark: String, _ time: Double, _ browser: ProcessIdentity?) {
            (self.mark, self.time, self.browser) = (mark, time, browser)
        }

        var line: String {
            "\(mark) \(Int64((time * 1_000).rounded(.down)))"
                + (browser.map { " \($0.pid) \($0.startTime)" } ?? "") + "\n"
        }
    }

    /// The size past which a pass is recorded by writing the file anew, without the passes past the window; below
    /// it, by appending one line.
    package static let pruningSize: Int64 = 64 * 1_024

    /// The runtime folder, made (0700) when it is not there yet.
    private func makeFolder() throws(SystemError) {
        if FileSystem.permissions(of: folder) == nil { try FileSystem.makePrivateDirectory(folder) }
    }

    /// Each line of `bytes` that records a pass since `start` (`MARK MILLISECONDS[ PID START]`, a mark of 64 hex
    /// digits): its mark, where it lies in `bytes`, its time in milliseconds and its browser. A click reads them all,
    /// so a line costs a length check and its numbers' digits, and nothing is copied; lines that are not such are
    /// left out.
    static func forEachPass(
        in bytes: [UInt8],
        since start: Double,
        _ body: (UnsafeBufferPointer<UInt8>, Int64, ProcessIdentity?) -> Void
    ) {
        let earliest = Int64((start * 1_000).rounded(.down))
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            while lineStart < buffer.count {
                var lineEnd = lineStart
                while lineEnd < buffer.count && buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                guard lineEnd - lineStart > 65, buffer[lineStart + 64] == UInt8(ascii: " ") else { continue }
                let numbers = buffer[(lineStart + 65)..<lineEnd].split(separator: UInt8(ascii: " "))
                guard numbers.count == 1 || numbers.count == 3,
                    let milliseconds = number(numbers[0]).flatMap(Int64.init(exactly:)), milliseconds >= earliest
                else { continue }
                var browser: ProcessIdentity?
                if numbers.count == 3 {
                    guard let pid = number(numbers[1]).flatMap(Int32.init(exactly:)), let start = number(numbers[2])
                    else { continue }
                    browser = ProcessIdentity(pid: pid, startTime: start)
                }
                body(UnsafeBufferPointer(rebasing: buffer[lineStart..<(lineStart + 64)]), milliseconds, browser)
            }
        }
    }

    /// The number the decimal digits `bytes` write (at most 19 of them); `nil` for anything else.
    private static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// How many lines of `bytes` record a pass of `mark` since `start` that the arriving process comes back from: a
    /// pass to a browser its lineage (read once, and only when a pass of the link is found) descends from, or to a
    /// browser not known.
    static func count(
        of mark: String,
        in bytes: [UInt8],
        since start: Double,
        handedBackBy lineage: () -> ProcessLineage = { ProcessLineage() }
    ) -> Int {
        let wanted = Array(mark.utf8)
        var count = 0
        var read: ProcessLineage?
        wanted.withUnsafeBufferPointer { wanted in
            forEachPass(in: bytes, since: start) { passed, _, browser in
                guard passed.elementsEqual(wanted) else { return }
                guard let browser else {
                    count += 1
                    return
                }
                let known = read ?? lineage()
                read = known
                if known.descends(from: browser) { count += 1 }
            }
        }
        return count
    }

    /// The passes `bytes` records since `start`, for writing the file anew.
    private static func passes(in bytes: [UInt8], since start: Double) -> [Pass] {
        var passes: [Pass] = []
        forEachPass(in: bytes, since: start) { mark, milliseconds, browser in
            passes.append(Pass(String(decoding: mark, as: UTF8.self), Double(milliseconds) / 1_000, browser))
        }
        return passes
    }

    private func write(_ passes: [Pass]) throws(SystemError) {
        try FileSystem.writeAtomically(Array(passes.map(\.line).joined().utf8), to: passesPath)
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
