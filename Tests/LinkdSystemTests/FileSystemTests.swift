import CSystemd
import Foundation
import Glibc
import LinkdSystem
import Testing

/// What the daemon writes and watches: files replaced whole with their mode from the start, a file's identity across
/// renames, and a folder watch that wakes on a change.
@Suite struct FileSystemTests {
    /// A new empty folder of its own, removed by `body`'s caller.
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-fs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    @Test func aFileWrittenAtomicallyReplacesTheOldOneWholeWithItsModeAndNoTemporaryLeft() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/entry.json"
        try FileSystem.writeAtomically(Array("first".utf8), to: path)
        #expect(mode(path) == 0o600)
        let before = try #require(FileIdentity.of(path: path))
        try FileSystem.writeAtomically(Array("second, longer".utf8), to: path, mode: 0o644)
        #expect(FileManager.default.contents(atPath: path) == Data("second, longer".utf8))
        #expect(mode(path) == 0o644)
        let after = try #require(FileIdentity.of(path: path))
        #expect(!after.isSameFile(as: before), "a new file was renamed over the old one")
        #expect(after.size == 14)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["entry.json"])
    }

    @Test func aFileThatCannotBeWrittenIsAnErrorNamingIt() throws {
        let path = "/nonexistent-linkd-folder/entry.json"
        #expect {
            try FileSystem.writeAtomically(Array("x".utf8), to: path)
        } throws: { error in
            guard case .file(_, let file, let errno) = error as? SystemError else { return false }
            return file.hasPrefix("/nonexistent-linkd-folder/") && errno.rawValue == ENOENT
        }
    }

    @Test func aFilesIdentityFollowsItAcrossARenameAndIsNoneForALinkOrAFolder() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("abc".utf8).write(to: URL(fileURLWithPath: folder + "/a"))
        let first = try #require(FileIdentity.of(path: folder + "/a"))
        #expect(rename(folder + "/a", folder + "/b") == 0)
        #expect(FileIdentity.of(path: folder + "/b")?.isSameFile(as: first) == true)
        #expect(symlink(folder + "/b", folder + "/link") == 0)
        #expect(FileIdentity.of(path: folder + "/link") == nil)
        #expect(FileIdentity.of(path: folder) == nil)
        let descriptor = try FileSystem.openForReading(folder + "/b")
        defer { descriptor.close() }
        #expect(FileIdentity.of(descriptor)?.isSameFile(as: first) == true)
    }

    @Test func anAppendAddsAtTheEndMakesA0600FileAndRefusesALink() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/records"
        try FileSystem.append(Array("one\n".utf8), to: path)
        try FileSystem.append(Array("two\n".utf8), to: path)
        #expect(FileSystem.contents(of: path) == Array("one\ntwo\n".utf8))
        #expect(FileSystem.permissions(of: path) == 0o600)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: path)
        #expect(throws: SystemError.file(operation: "open", path: folder + "/link", errno: Errno(rawValue: ELOOP))) {
            try FileSystem.append(Array("three\n".utf8), to: folder + "/link")
        }
        #expect(FileSystem.contents(of: path) == Array("one\ntwo\n".utf8))
    }

    /// Through inotify, and (`polling`) by comparing the folder, as when no inotify instance can be had.
    @Test(arguments: [false, true])
    func aFolderWatchWakesWhenAFileIsWrittenThere(polling: Bool) async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/old.json"))
        let watch = FolderWatch([folder], polling: polling)
        #expect((watch.pollingReason != nil) == polling)
        let woke = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await watch.nextChange(settle: .milliseconds(20))
                return true
            }
            group.addTask {
                // Only a bound for a watch that never wakes: on a loaded runner the task pool can be held for seconds.
                try await Task.sleep(for: .seconds(60))
                return false
            }
            if polling { try await Task.sleep(for: .milliseconds(200)) }  // after the first comparison's look
            try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/app.json"))
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(woke)
    }

    @Test func aReadinessListenerHearsREADYAndGivesUpAtItsDeadline() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listener = try ReadinessListener(path: folder + "/notify")
        defer { listener.close() }
        #expect(await listener.waitForReady(deadline: .now + .milliseconds(50)) == false)
        #expect(Notifier.sendDatagram("STATUS=starting\nREADY=1", to: listener.path) == 1)
        #expect(await listener.waitForReady(deadline: .now + .seconds(5)))
    }

    /// The end of a stream and an error are told apart: an empty read is the end, a non-blocking pipe with nothing in
    /// it is ``Errno/wouldBlock``, and closing says whether it went cleanly.
    @Test func aReadTellsTheEndOfTheStreamFromAnError() throws {
        var fds: [Int32] = [0, 0]
        // Close-on-exec from the start: a program a test beside this one starts must not keep the write end open.
        try #require(linkd_pipe(&fds) == 0)
        let (reading, writing) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
        try reading.makeNonBlockingAndCloseOnExec()
        #expect(reading.readSome() == .failure(.wouldBlock))
        writing.writeAll("abc")
        #expect(reading.readSome() == .success(Array("abc".utf8)))
        #expect(writing.close() == nil)
        // A test beside this one may fork in this moment: its child holds a copy of the write end until it runs its
        // program. The end of the stream comes when the last copy is closed, and poll(2) sees it.
        var entry = pollfd(fd: reading.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 30_000) == 1)
        #expect(reading.readSome() == .success([]))
        #expect(reading.close() == nil)
    }

    @Test func theContentsOfAFIFOWithNoWriterAreEmptyAndOfALinkNone() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        #expect(FileSystem.contents(of: folder + "/fifo") == [])
        try Data("12345".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        #expect(FileSystem.contents(of: folder + "/file", limit: 3) == Array("123".utf8))
        #expect(symlink(folder + "/file", folder + "/link") == 0)
        #expect(FileSystem.contents(of: folder + "/link") == nil)
    }
}
