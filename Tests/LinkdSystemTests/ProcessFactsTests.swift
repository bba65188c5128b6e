import Foundation
import LinkdSystem
import Testing

/// What the system layer tells the other modules about files, the clock, the machine and this process, checked
/// against what the kernel says through `/proc` and what Foundation reads.
@Suite struct ProcessFactsTests {
    /// A new empty folder of its own, removed by the caller.
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-facts-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFilesStatusSaysItsKindSizeOwnerAndPermissionsAndALinkIsSeenOnlyWhenNotFollowed() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("twelve bytes".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "file")

        let status = try FileSystem.status(of: file).get()
        #expect(status.kind == .regular)
        #expect(status.size == 12)
        #expect(status.permissions == 0o640)
        #expect(status.owner == CurrentUser.effectiveID)
        #expect(try FileSystem.status(of: folder + "/link").get() == status)
        #expect(try FileSystem.status(of: folder + "/link", followingLinks: false).get().kind == .symbolicLink)
        #expect(try FileSystem.status(of: folder).get().kind == .directory)
        #expect(try FileSystem.status(of: "/dev/null").get().kind == .other)
    }

    @Test func aMissingFileAndALinkLoopFailWithTheirOwnErrno() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: folder + "/b", withDestinationPath: "a")
        #expect(throws: Errno.noEntry) { try FileSystem.status(of: folder + "/missing").get() }
        #expect(throws: Errno.tooManyLinks) { try FileSystem.status(of: folder + "/a").get() }
        #expect(try FileSystem.status(of: folder + "/a", followingLinks: false).get().kind == .symbolicLink)
    }

    @Test func theWallClockAgreesWithFoundationAndWritesISO8601InUTC() throws {
        let before = Int64(Date().timeIntervalSince1970)
        let seconds = WallClock.seconds
        let text = WallClock.iso8601()
        let after = Int64(Date().timeIntervalSince1970)
        #expect((before...after).contains(seconds))
        #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(text)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(formatter.date(from: text))
        #expect(abs(parsed.timeIntervalSince1970 - Double(seconds)) < 2)
    }

    @Test func theMachineIsWhatTheKernelSays() throws {
        let release = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)
        #expect(Machine.current.kernelRelease == release.trimmingCharacters(in: .newlines))
        let uname = Process()
        uname.executableURL = URL(fileURLWithPath: "/usr/bin/uname")
        uname.arguments = ["-m"]
        let output = Pipe()
        uname.standardOutput = output
        try uname.run()
        let machine = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        uname.waitUntilExit()
        #expect(Machine.current.architecture == machine.trimmingCharacters(in: .newlines))
    }

    @Test func theProcessAndUserIdsAreWhatProcSays() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        func field(_ name: String) -> [String] {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
                $0.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).map(String.init)
            } ?? []
        }
        #expect(field("Pid") == [String(CurrentProcess.id)])
        let uids = field("Uid")  // real, effective, saved, file system
        #expect(uids.count == 4)
        #expect(uids.first == String(CurrentUser.id))
        #expect(uids.dropFirst().first == String(CurrentUser.effectiveID))
    }

    @Test func theArgumentsAreThisProcesssOwnAfterItsName() throws {
        let command = try #require(FileManager.default.contents(atPath: "/proc/self/cmdline"))
        let words = command.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { Array($0) }
        #expect(CurrentProcess.arguments == Array(words.dropFirst()))
    }
}
