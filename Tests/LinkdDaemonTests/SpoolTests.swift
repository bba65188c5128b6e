import Foundation
import LinkdDaemon
import LinkdSystem
import LinkdTestSupport
import Testing

/// The spool's files: each kind written and read back, 0600 in a 0700 folder, named by id alone; files of linkd
/// 0.1 and broken files.
@Suite(.ownThread) struct SpoolTests {
    private func makeSpool() throws -> (Spool, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        return (Spool(directory: folder.appendingPathComponent("spool").path), folder)
    }

    @Test(arguments: [
        Spool.Entry.Kind.exec(program: nil), .exec(program: ProcessIdentity(pid: 42, startTime: 9_000)), .dbus,
        .forward(app: "com.example.Notes", expires: 1_700_000_600), .reset(sent: false),
        .reset(sent: true),
    ])
    func eachKindIsReadBackAsWritten(_ kind: Spool.Entry.Kind) throws {
        let (spool, folder) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: folder) }
        let entry = try spool.add(url: "myapp://x#access_token=SECRET", kind: kind)
        #expect(spool.entries().entries == [entry])
        #expect(spool.entries().broken.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: spool.directory)
        #expect(names == [entry.id + ".json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: spool.directory + "/" + names[0])
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: spool.directory)
        #expect(folderAttributes[.posixPermissions] as? Int == 0o700)
        spool.remove(entry.id)
        #expect(spool.entries().entries.isEmpty)
    }

    @Test func entriesComeOldestFirstAndARewriteKeepsOneFile() throws {
        let (spool, folder) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try spool.add(url: "a://1", kind: .exec(program: nil))
        let second = try spool.add(url: "a://2", kind: .reset(sent: false))
        var sent = second
        sent.kind = .reset(sent: true)
        try spool.write(sent)
        #expect(spool.entries().entries.map(\.id) == [first.id, second.id])
        #expect(spool.entries().entries.last?.kind == .reset(sent: true))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.directory).count == 2)
    }

    /// linkd 0.1 wrote no `kind`: a reset said `action`, a forward link `app` and `expires`, a program's link neither.
    @Test(arguments: [
        (#""action": "reset", "sent": true"#, Spool.Entry.Kind.reset(sent: true)),
        (#""action": "reset""#, .reset(sent: false)),
        (#""app": "a", "expires": 5"#, .forward(app: "a", expires: 5)),
        ("", .exec(program: nil)),
    ])
    func entriesOfTheFirstVersionAreRead(_ members: String, _ kind: Spool.Entry.Kind) throws {
        let (spool, folder) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = "00000000000000aa0000000000000001"
        let extra = members.isEmpty ? "" : ", " + members
        let text = #"{"id": "\#(id)", "url": "a://b", "attempts": 1, "accepted": 1\#(extra)}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: spool.directory + "/\(id).json"))
        #expect(spool.entries().entries.map(\.kind) == [kind])
    }

    @Test(arguments: [
        "", "{", #"{"id": "x"}"#, #"{"id": "x", "url": "u", "attempts": 1, "accepted": 1, "kind": "teleport"}"#,
    ])
    func aBrokenFileIsReportedForRemovalNotRead(_ text: String) throws {
        let (spool, folder) = try makeSpool()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: spool.directory + "/0123.json"))
        let good = try spool.add(url: "a://1", kind: .dbus)
        #expect(spool.entries().entries == [good])
        #expect(spool.entries().broken == ["0123"])
    }
}
