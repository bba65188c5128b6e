package import LinkdSystem

/// The association files fetched, kept 0600 in `$XDG_CACHE_HOME/linkd/associations/HOST/` (with the path each came
/// from when it is not its `/.well-known/` one): a file is fetched again
/// after 24 h. A fetch the site refuses (a 3xx or 4xx, a file that cannot be read) withdraws the last good file at
/// once; one that fails on the way (no connection, no answer in time, a 5xx) keeps it, used for up to 7 days after
/// it was fetched. A failed fetch is tried again after an hour. Clicks read this cache alone, never the network.
///
/// A file an app fetched through its own CA file or proxy (``AssociationTrust``) is kept apart, in
/// `HOST+KEY/`, and read for that app alone.
package struct AssociationCache: Sendable {
    /// What the cache holds for one file of one host.
    package enum Stored: Sendable, Equatable {
        /// Fetched within the last 24 h.
        case fresh([UInt8])
        /// Fetched between 24 h and 7 days ago: still used, while the next fetch is tried.
        case stale([UInt8], failure: String?)
        /// Nothing usable: never fetched, or the last good file is older than 7 days; why.
        case missing(String)
    }

    /// After how long a file is fetched again.
    package static let refreshAfter = 24.0 * 3_600
    /// How long a file is used after it was fetched, while fetches fail.
    package static let keptFor = 7.0 * 86_400
    /// After how long a failed fetch is tried again.
    package static let retryAfter = 3_600.0

    /// The `associations` folder.
    package let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    private func base(_ file: AssociationFile, host: String, trust: AssociationTrust?) -> String {
        folder + "/" + Self.folderName(of: host, trust: trust) + "/" + file.rawValue
    }

    /// The folder of `host` (fetched with `trust`): its name in lower case, a port after its `:`; anything else that
    /// is no plain host name (a `/`, a leading `.`, an IPv6 address's brackets) is `=` and its bytes in hex, so that no
    /// name leaves the cache folder. With an app's own trust, `+` and the trust's key follow. A plain name has neither
    /// `=` nor `+`, and hex has no `+`: no two hosts, or host and trust, share a folder.
    static func folderName(of host: String, trust: AssociationTrust? = nil) -> String {
        let name = host.lowercased()
        let isPlain =
            !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-:".unicodeScalars.contains($0)
            }
        let folder = isPlain ? name : "=" + name.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return folder + (trust.map { "+" + $0.key } ?? "")
    }

    /// What the cache holds for `file` of `host`, fetched with `trust`, at `now` (seconds since 1970).
    package func stored(
        _ file: AssociationFile,
        host: String,
        trust: AssociationTrust? = nil,
        now: Double
    ) -> Stored {
        let state = State(reading: base(file, host: host, trust: trust) + ".state")
        guard let fetched = state.fetched, now - fetched <= Self.keptFor,
            let bytes = FileSystem.contents(of: base(file, host: host, trust: trust), limit: file.sizeLimit)
        else {
            return .missing(
                state.failure ?? (state.fetched == nil ? "not fetched yet" : "the last good file is too old")
            )
        }
        return now - fetched <= Self.refreshAfter ? .fresh(bytes) : .stale(bytes, failure: state.failure)
    }

    /// Whether `file` of `host` (fetched with `trust`) should be fetched at `now`: never fetched, older than a day,
    /// or its last fetch failed more than an hour ago.
    package func isDue(_ file: AssociationFile, host: String, trust: AssociationTrust? = nil, now: Double) -> Bool {
        let state = State(reading: base(file, host: host, trust: trust) + ".state")
        if state.failure != nil, let attempted = state.attempted { return now - attempted >= Self.retryAfter }
        guard let fetched = state.fetched else { return true }
        return now - fetched >= Self.refreshAfter
    }

    /// The path on `host` that the kept `file` (fetched with `trust`) came from: its `/.well-known/` path, or the
    /// root's (``AssociationFile/paths``).
    package func source(_ file: AssociationFile, host: String, trust: AssociationTrust? = nil) -> String {
        State(reading: base(file, host: host, trust: trust) + ".state").path ?? file.path
    }

    /// Keeps what a fetch of `file` of `host` with `trust` at `now` gave: the file from its `/.well-known/` path, or
    /// the failure beside the last good file.
    ///
    /// - Throws: ``SystemError`` when the cache folder cannot be written.
    package func record(
        _ result: Result<[UInt8], AssociationFailure>,
        of file: AssociationFile,
        host: String,
        trust: AssociationTrust? = nil,
        now: Double
    ) throws(SystemError) {
        let fetch = result.map { AssociationFetch(bytes: $0, path: file.path) }
        try record(fetch: fetch, of: file, host: host, trust: trust, now: now)
    }

    /// Keeps what a fetch of `file` of `host` with `trust` at `now` gave: the file and the path it was at, or the
    /// failure beside the last good file.
    ///
    /// - Throws: ``SystemError`` when the cache folder cannot be written.
    package func record(
        fetch result: Result<AssociationFetch, AssociationFailure>,
        of file: AssociationFile,
        host: String,
        trust: AssociationTrust? = nil,
        now: Double
    ) throws(SystemError) {
        let path = base(file, host: host, trust: trust)
        try FileSystem.makePrivateDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        var state = State(reading: path + ".state")
        state.attempted = now
        switch result {
        case .success(let fetch):
            try FileSystem.writeAtomically(fetch.bytes, to: path)
            state.fetched = now
            state.failure = nil
            state.path = fetch.path == file.path ? nil : fetch.path
            removeIncluded(of: path, state: &state)
            for (index, included) in fetch.included.enumerated() {
                if case .success(let bytes) = included.result {
                    try FileSystem.writeAtomically(bytes, to: "\(path).include.\(index)")
                }
                state.included.append(
                    (
                        included.address,
                        { if case .failure(let failure) = $0 { failure.reason } else { nil } }(included.result)
                    )
                )
            }
        case .failure(let failure):
            state.failure = failure.reason
            if failure.withdraws {
                _ = FileSystem.remove(path)
                removeIncluded(of: path, state: &state)
                state.fetched = nil
                state.path = nil
            }
        }
        try FileSystem.writeAtomically(Array(state.text.utf8), to: path + ".state")
    }

    /// The files the kept `file` of `host` (fetched with `trust`) includes, as they were fetched with it: each one's
    /// bytes, or why it could not be had (an assetlinks.json's `include` statements).
    package func included(
        _ file: AssociationFile,
        host: String,
        trust: AssociationTrust? = nil
    ) -> [AssetLinks.Included] {
        let path = base(file, host: host, trust: trust)
        return State(reading: path + ".state").included.enumerated().map { index, included in
            if let failure = included.failure {
                return AssetLinks.Included(address: included.address, result: .failure(AssociationFailure(failure)))
            }
            guard let bytes = FileSystem.contents(of: "\(path).include.\(index)", limit: file.sizeLimit) else {
                let failure = AssociationFailure("no longer kept")
                return AssetLinks.Included(address: included.address, result: .failure(failure))
            }
            return AssetLinks.Included(address: included.address, result: .success(bytes))
        }
    }

    /// Removes the included files kept beside the file at `path`, and forgets them in its `state`.
    private func removeIncluded(of path: String, state: inout State) {
        for index in state.included.indices { _ = FileSystem.remove("\(path).include.\(index)") }
        state.included = []
    }

    /// Fetches `file` of `host` with `trust` when it is due, and keeps what it gave.
    package func refresh(_ file: AssociationFile, host: String, trust: AssociationTrust?, now: Double) async {
        guard isDue(file, host: host, trust: trust, now: now) else { return }
        let fetcher = AssociationFetcher(caFile: trust?.caFile, proxy: trust?.proxy)
        let result = await fetcher.fetch(file, host: host)
        try? record(fetch: result, of: file, host: host, trust: trust, now: now)
    }

    /// A file's `.state`: when it was last fetched, when a fetch was last tried, why that one failed, the path the
    /// kept file came from when it is not its `/.well-known/` one, and the files it includes (`include=ADDRESS`, with
    /// why one could not be had after a space; the bytes of the one at index N in `FILE.include.N`).
    struct State {
        var fetched: Double?
        var attempted: Double?
        var failure: String?
        var path: String?
        var included: [(address: String, failure: String?)] = []

        init(reading path: String) {
            // Its includes' addresses take up to 10 × 2 KiB (``AssetLinks/includeLimit``, ``AssetLinks/addressLimit``).
            let text = String(decoding: FileSystem.contents(of: path, limit: 65_536) ?? [], as: UTF8.self)
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                let value = String(line[line.index(after: equals)...])
                switch line[..<equals] {
                case "fetched": fetched = Double(value)
                case "attempted": attempted = Double(value)
                case "failure": failure = value
                case "path": self.path = value
                case "include":
                    let space = value.firstIndex(of: " ")
                    included.append(
                        (
                            String(value[..<(space ?? value.endIndex)]),
                            space.map { String(value[value.index(after: $0)...]) }
                        )
                    )
                default: continue
                }
            }
        }

        var text: String {
            var lines: [String] = []
            if let fetched { lines.append("fetched=\(fetched)") }
            if let attempted { lines.append("attempted=\(attempted)") }
            if let path { lines.append("path=\(path)") }
            if let failure { lines.append("failure=" + Self.oneLine(failure)) }
            for (address, failure) in included {
                lines.append("include=" + address + (failure.map { " " + Self.oneLine($0) } ?? ""))
            }
            return lines.joined(separator: "\n") + "\n"
        }

        private static func oneLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }
}
