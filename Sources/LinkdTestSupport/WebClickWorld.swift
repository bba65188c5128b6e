package import Foundation

/// A daemon world for web links as a person has them: a recording browser that had http and https (its desktop entry
/// in the world's data folder, the default in its mimeapps.list), a real HTTPS server of the tests (the test CA's
/// certificate, behind the TLS proxy) that serves the association files, and `gio open` and `xdg-open` to click with.
package final class WebClickWorld: Sendable {
    /// The daemon world.
    package let world: DaemonHarness
    /// The test CA, whose certificate the apps' `web.caFile` names.
    package let ca: TestCA
    /// The HTTPS server's host, `127.0.0.1:PORT`.
    package let host: String
    /// Where the recording browser appends its arguments, one line per start (`|` between them).
    package let browserLog: URL
    private let server: TestHTTPServer
    private let proxy: TLSProxy

    /// - Parameters:
    ///   - world: the daemon world to set up in (a new one unless a test brings its own).
    ///   - answer: the server's answer to each request (the association files' paths among them).
    /// - Throws: when the server, the proxy or a file cannot be set up.
    package init(
        world: DaemonHarness? = nil,
        answer: @escaping @Sendable (ReceivedRequest) -> DoubleResponse
    ) throws {
        self.world = try world ?? DaemonHarness()
        ca = try TestCA.make()
        server = try TestHTTPServer(handler: answer)
        proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        host = "127.0.0.1:\(proxy.port)"
        browserLog = self.world.root.appendingPathComponent("browser.log")
        try writeBrowser("recbrowser.desktop", program: Self.recording(to: browserLog.path))
        try FileManager.default.createDirectory(at: self.world.config, withIntermediateDirectories: true)
        let list =
            "[Default Applications]\nx-scheme-handler/http=recbrowser.desktop\n"
            + "x-scheme-handler/https=recbrowser.desktop\n"
        try Data(list.utf8).write(to: self.world.config.appendingPathComponent("mimeapps.list"))
    }

    /// Shell that appends its arguments to `log` as one line, `|` after each, in one write (browsers the daemon starts
    /// for quick clicks run at once, and two writes each would interleave their lines).
    package static func recording(to log: String) -> String {
        "line=$(printf '%s|' \"$@\"); printf '%s\\n' \"$line\" >> \(log)"
    }

    /// The desktop session's environment: the world's folders, no display and no session bus, and the world's own
    /// system data folder (so that no browser of the machine is found).
    package var environment: [String: String] {
        var environment = world.desktopEnvironment
        environment["XDG_DATA_DIRS"] = world.root.appendingPathComponent("system").path
        environment["XDG_CONFIG_DIRS"] = world.root.appendingPathComponent("system-config").path
        return environment
    }

    /// Writes a browser's desktop entry `id` (in the user's data folder, or the system one) whose program runs
    /// `program` (shell), with the link as its last argument.
    package func writeBrowser(_ id: String, program: String, system: Bool = false) throws {
        let script = try world.script(id + ".sh", program + "\n")
        let folder = world.root.appendingPathComponent(system ? "system/applications" : "data/applications")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entry = """
            [Desktop Entry]
            Type=Application
            Name=Browser \(id)
            Exec=\(script.path) --new-tab %u
            MimeType=text/html;x-scheme-handler/http;x-scheme-handler/https;

            """
        try Data(entry.utf8).write(to: folder.appendingPathComponent(id))
    }

    /// Writes the apps.d file `name`.
    package func writeApp(_ name: String, _ json: String) throws {
        try Data(json.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/" + name))
    }

    /// Runs `linkd` in the desktop environment (with `extra`).
    package func linkd(_ arguments: [String], extra: [String: String] = [:]) throws -> LinkdProcess.Output {
        try LinkdProcess.run(arguments, environment: environment.merging(extra) { $1 })
    }

    /// Clicks `url` as a mail client does: `gio open URL`, or `xdg-open URL` with `DISPLAY` set; its exit status.
    package func click(_ url: String, with tool: String = "gio", extra: [String: String] = [:]) throws -> Int32 {
        var environment = self.environment.merging(extra) { $1 }
        let process: SpawnedProcess
        if tool == "gio" {
            process = try SpawnedProcess("/usr/bin/gio", ["open", url], environment: environment)
        } else {
            environment["DISPLAY"] = ":99"
            process = try SpawnedProcess("/usr/bin/xdg-open", [url], environment: environment)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The browser's starts, once there are `count` of them (or 10 s passed), each as its arguments.
    package func browserStarts(count: Int) -> [[String]] {
        let read = {
            ((try? String(contentsOf: self.browserLog, encoding: .utf8)) ?? "").split(separator: "\n").map {
                $0.split(separator: "|", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
        }
        _ = world.waitUntil(.seconds(10)) { read().count >= count }
        return read()
    }

    /// Every file under the world's folder that holds `text`, but the browser's log and the apps.d files.
    package func filesHolding(_ text: String) -> [String] {
        let root = world.root
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return files.compactMap { item -> String? in
            guard let url = item as? URL, url != browserLog, !url.path.contains("/apps.d/"),
                let data = FileManager.default.contents(atPath: url.path)
            else { return nil }
            return String(decoding: data, as: UTF8.self).contains(text) ? url.path : nil
        }
    }
}
