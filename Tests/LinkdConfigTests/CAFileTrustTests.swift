import Foundation
import LinkdConfig
import Testing

/// A `caFile` (a backend's or the web section's) decides which servers linkd believes; like every file linkd takes
/// orders from, it must be one only root and this user can change, or the app does not load.
@Suite struct CAFileTrustTests {
    /// A folder of mode `folderMode` holding `ca.pem` of mode `fileMode`; removed by the caller.
    private func caFile(folderMode: Int, fileMode: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let file = folder.appendingPathComponent("ca.pem").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("-----BEGIN CERTIFICATE-----\n".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: file)
        try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: folder.path)
        return file
    }

    private func decode(_ text: String) -> (AppConfig?, [String]) {
        var decoder = AppConfigDecoder(file: "notes.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = decoder.decode(Array(text.utf8))
        return (app, decoder.errors.map { "\($0.path): \($0.problem)" })
    }

    private func backend(_ file: String) -> String {
        #"{"app": "com.example.Notes", "links": [{"match": "notes://reset", "format": "supabase", "action": "reset"}], "#
            + #""backend": {"kind": "supabase", "url": "https://abcd.supabase.co", "apiKey": "k", "caFile": "\#(file)"}}"#
    }

    private func web(_ file: String) -> String {
        #"{"app": "com.example.Notes", "links": [{"match": "https://notes.example.com/reset", "action": "forward"}], "#
            + #""web": {"appleAppId": "ABCDE12345.com.example.notes", "caFile": "\#(file)"}}"#
    }

    @Test(arguments: [
        (0o777, 0o644, "writable by its group and others"), (0o755, 0o666, "writable by its group and others"),
        (0o755, 0o664, "writable by its group"), (0o755, 0o646, "writable by others"),
    ])
    func aFileOthersCanChangeStopsTheApp(folderMode: Int, fileMode: Int, said: String) throws {
        let file = try caFile(folderMode: folderMode, fileMode: fileMode)
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let culprit = folderMode == 0o777 ? (file as NSString).deletingLastPathComponent : file
        for (text, key) in [(backend(file), "$.backend.caFile"), (web(file), "$.web.caFile")] {
            let (app, errors) = decode(text)
            #expect(app == nil)
            #expect(
                errors == ["\(key): '\(culprit)' is \(said): linkd trusts no CA file that another user can change"]
            )
        }
    }

    @Test func aFileOnlyItsOwnerCanChangeLoads() throws {
        let file = try caFile(folderMode: 0o755, fileMode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        for text in [backend(file), web(file)] {
            let (app, errors) = decode(text)
            #expect(app != nil)
            #expect(errors.isEmpty)
        }
    }
}
