import LinkdDaemon

extension FuzzTarget {
    /// The daemon's reader of spool files on any bytes, as the file `<id>.json`: an entry is read or the file is
    /// refused (a refused file is removed as broken), never a crash; an entry read names the file's id and is
    /// refused under any other name; and an entry read, then written as ``Spool/write(_:)`` writes it (which a
    /// replay does, to count its attempt), reads back as itself. (Not byte for byte: `JSONEncoder` orders keys as
    /// its dictionary does, which changes from one call to the next.)
    package static let spool = FuzzTarget("spool") { bytes in
        let contents = Array(bytes)
        guard let entry = Spool.entry(inContents: contents, id: spoolID) else { return }
        require(entry.id == spoolID, "an entry read under another id")
        require(Spool.entry(inContents: contents, id: String(spoolID.reversed())) == nil, "a forged entry is read")
        let written = Spool.contents(of: entry)
        require(Spool.entry(inContents: written, id: spoolID) == entry, "an entry written reads back as another")
    }

    /// The id of the seeds' entries, as the spool makes ids: 32 lower-case hex digits.
    static let spoolID = "0123456789abcdef00112233445566ff"
}
