import Foundation
import Glibc
import LinkdDaemon
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// What the spool does at its edges: its cap, what a killed daemon left half written, a folder it cannot write, and
/// files that are not its entries.
@Suite(.ownThread) struct SpoolFailureTests {
    private func makeFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
    }

    private func entryText(id: String, url: String = "a://b") -> String {
        SpoolFiles.entry(id: id, url: url, kind: "dbus")
    }

    /// The entries a spool finds when it is opened count toward its cap; a link beyond it is refused and nothing is
    /// written; a removed entry frees its place (and an entry removed twice frees one place only).
    @Test func holdsAtMostItsCapacity() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("spool").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let written = (0..<Spool.capacity).filter { number in
            let id = SpoolFiles.id(number)
            return SpoolFiles.write(entryText(id: id), to: "\(directory)/\(id).json")
        }
        #expect(written.count == 10_000)
        let spool = Spool(directory: directory)
        #expect(spool.entryCount == 10_000)
        #expect(throws: Spool.Failure.full(capacity: 10_000)) { try spool.add(url: "a://new", kind: .dbus) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 10_000)
        spool.remove(SpoolFiles.id(7))
        spool.remove(SpoolFiles.id(7))
        let added = try spool.add(url: "a://new", kind: .dbus)
        #expect(spool.entryCount == 10_000)
        #expect(throws: Spool.Failure.full(capacity: 10_000)) { try spool.add(url: "a://newer", kind: .dbus) }
        #expect(FileManager.default.fileExists(atPath: "\(directory)/\(added.id).json"))
    }

    /// A daemon killed while writing an entry leaves its hidden temporary file: the next daemon's spool removes it
    /// rather than keeping it for ever.
    @Test func temporaryFilesOfAKilledWriteAreRemovedWhenOpened() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("spool").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let id = String(repeating: "ab", count: 16)
        try Data(entryText(id: id).utf8).write(to: URL(fileURLWithPath: "\(directory)/\(id).json"))
        try Data("{\"id\": ".utf8).write(to: URL(fileURLWithPath: "\(directory)/.\(id).json.3f2a"))
        let spool = Spool(directory: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["\(id).json"])
        #expect(spool.entryCount == 1)
    }

    /// A file where the folder should be cannot hold entries: the link is refused as unwritable (not a crash, not a
    /// disk full). A folder that went away is made again by the next link.
    @Test func aFileInPlaceOfTheFolderRefusesAndAMissingFolderIsMadeAgain() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let directory = folder.appendingPathComponent("spool").path
        #expect(FileManager.default.createFile(atPath: directory, contents: Data("not a folder".utf8)))
        let spool = Spool(directory: directory)
        #expect {
            try spool.add(url: "a://1", kind: .dbus)
        } throws: { error in
            guard case .unwritable(let named, let cause) = error as? Spool.Failure else { return false }
            return named == directory && cause.errno == Errno(rawValue: ENOTDIR)
        }
        try FileManager.default.removeItem(atPath: directory)
        let entry = try spool.add(url: "a://2", kind: .dbus)
        #expect(spool.entries().entries == [entry])
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func theFileSystemsErrorsSayWhatIsWrong() {
        let full = Spool.Failure(.file(operation: "write", path: "/x/y.json", errno: .noSpace), folder: "/x")
        #expect(full == .diskFull(folder: "/x"))
        #expect(full.reason == .diskFull)
        #expect(full.description.hasPrefix("the disk holding linkd's spool '/x' is full; nothing was done"))
        let readOnly = Spool.Failure(
            .file(operation: "create", path: "/x/.y", errno: Errno(rawValue: EROFS)),
            folder: "/x"
        )
        #expect(readOnly.reason == .spoolUnwritable)
        #expect(readOnly.description.hasPrefix("linkd cannot write its spool '/x' (Read-only file system)"))
        #expect(Spool.Failure.full(capacity: 10_000).reason == .spoolFull)
    }

    /// Files that are not the spool's entries are reported broken, whatever they are, and the good entry is read: a
    /// FIFO (whose open would wait for a writer for ever), a symbolic link, a file over 1 MiB, wrong types, and a
    /// file naming another id than its own, which would make its link's actions write or remove another file.
    @Test func filesThatAreNoEntriesAreBrokenAndTheOthersRead() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("spool").path
        let spool = Spool(directory: directory)
        let good = try spool.add(url: "a://good", kind: .dbus)
        let write = { (name: String, text: String) in
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name).json"))
        }
        #expect(mkfifo("\(directory)/fifo.json", 0o600) == 0)
        #expect(symlink("\(directory)/\(good.id).json", "\(directory)/link.json") == 0)
        let url = "a://" + String(repeating: "x", count: 1 << 20)
        try write("huge", entryText(id: "huge", url: url))
        try write("types", #"{"id": "types", "url": 7, "attempts": "one", "accepted": 1, "kind": "dbus"}"#)
        try write("forged", entryText(id: "../../outside"))
        try write("half", String(entryText(id: "half").prefix(30)))
        let (entries, broken) = spool.entries()
        #expect(entries == [good])
        #expect(Set(broken) == ["fifo", "link", "huge", "types", "forged", "half"])
    }
}
