import Foundation
import LinkdTestSupport
import Testing

/// `linkd status` and `status --json`: exit 0 only when every claimed scheme opens in linkd and the daemon can be
/// reached; config problems are counted and left to `linkd check`.
@Suite(.ownThread, .serialized) struct StatusCommandTests {
    /// The JSON object `status --json` prints in `world`, with the parts that change between the runs given.
    private func json(_ world: DaemonHarness, ok: Bool, handler: String?, desktopFile: Bool, socket: String) -> String {
        let handlerValue = handler.map { "\"\($0)\"" } ?? "null"
        let desktopValue = desktopFile ? "\"\(world.root.path)/data/applications/linkd.desktop\"" : "null"
        return """
            {"ok": \(ok), "schemes": [{"scheme": "myapp", "handler": \(handlerValue), "linkd": \(handler == "linkd.desktop")}], \
            "desktop_file": \(desktopValue), "mimeapps_list": "\(world.config.path)/mimeapps.list", \
            "socket": {"path": "\(world.socketPath)", "state": "\(socket)"}, "units": null, \
            "apps": [{"app": "com.example.Notes", "links": 4}], "problems": [], \
            "web": {"registered": false, "handler": null, "browser": null, "takenBack": false, "hosts": []}, \
            "subscribed": null}

            """
    }

    @Test func exitsOneUntilTheSchemeOpensInLinkdAndTheDaemonCanBeReached() throws {
        let world = try DaemonHarness()
        var environment = world.desktopEnvironment
        environment["XDG_DATA_DIRS"] = world.root.path + "/system"  // no browser of the machine's
        let tail =
            "systemd: no user manager answers (linkd starts on demand)\napps: com.example.Notes (4 links)\n"
            + "web links: no browser is installed to open them\n"
            + "subscribed apps: none (no daemon serves io.linkd.Linkd1 on the session bus)\n"
        #expect(
            try LinkdProcess.run(["status"], environment: environment)
                == .init(
                    stdout: "desktop file: none (run 'linkd register')\n"
                        + "scheme myapp: no handler (run 'linkd register myapp')\n"
                        + "daemon: down (the next 'linkd open' starts it)\n" + tail,
                    stderr: "",
                    status: 1
                )
        )
        #expect(
            try LinkdProcess.run(["status", "--json"], environment: environment)
                == .init(
                    stdout: json(world, ok: false, handler: nil, desktopFile: false, socket: "down"),
                    stderr: "",
                    status: 1
                )
        )

        #expect(try LinkdProcess.run(["register"], environment: environment).status == 0)
        let registered = try LinkdProcess.run(["status"], environment: environment)
        #expect(registered.status == 0)  // the scheme opens in linkd, and the next 'linkd open' starts a daemon
        #expect(registered.stdout.contains("scheme myapp: GIO opens it with linkd.desktop (linkd)\n"))

        let daemon = try world.startDaemon()
        defer { daemon.terminate() }
        #expect(
            try LinkdProcess.run(["status"], environment: environment)
                == .init(
                    stdout: "desktop file: \(world.root.path)/data/applications/linkd.desktop (schemes: myapp)\n"
                        + "scheme myapp: GIO opens it with linkd.desktop (linkd)\n"
                        + "daemon: listening on \(world.socketPath)\n" + tail,
                    stderr: "",
                    status: 0
                )
        )
        #expect(
            try LinkdProcess.run(["status", "--json"], environment: environment)
                == .init(
                    stdout: json(world, ok: true, handler: "linkd.desktop", desktopFile: true, socket: "listening"),
                    stderr: "",
                    status: 0
                )
        )
    }

    @Test func aSchemeAnotherAppTookBackMakesItOne() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        #expect(try LinkdProcess.run(["register", "myapp"], environment: environment).status == 0)
        let daemon = try world.startDaemon()
        defer { daemon.terminate() }
        #expect(try LinkdProcess.run(["status"], environment: environment).status == 0)
        try Data("[Desktop Entry]\nType=Application\nName=Other\nExec=/bin/true %u\n".utf8)
            .write(to: world.root.appendingPathComponent("data/applications/org.example.Other.desktop"))
        let list = world.config.appendingPathComponent("mimeapps.list")
        let taken = try String(contentsOf: list, encoding: .utf8).replacing(
            "=linkd.desktop",
            with: "=org.example.Other.desktop"
        )
        try Data(taken.utf8).write(to: list)
        let output = try LinkdProcess.run(["status"], environment: environment)
        #expect(output.status == 1)
        #expect(output.stdout.contains("scheme myapp: GIO opens it with org.example.Other.desktop, not linkd\n"))
    }

    @Test func configProblemsAreCountedAndLeftToCheck() throws {
        let world = try DaemonHarness()
        let apps = world.config.appendingPathComponent("linkd/apps.d")
        try Data("{".utf8).write(to: apps.appendingPathComponent("broken.json"))
        try Data("[1,".utf8).write(to: apps.appendingPathComponent("cut.json"))  // each is one problem: not JSON
        let text = try LinkdProcess.run(["status"], environment: world.desktopEnvironment)
        #expect(text.stdout.contains("apps: com.example.Notes (4 links)\nconfig: 2 problems; run 'linkd check'\n"))
        #expect(!text.stdout.contains("broken.json"))

        let output = try LinkdProcess.run(["status", "--json"], environment: world.desktopEnvironment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: String]])
        #expect(problems.map { $0["kind"] } == ["config", "config"])
        #expect(problems[0]["message"]?.hasPrefix(apps.appendingPathComponent("broken.json").path + ":") == true)
        #expect(problems[1]["message"]?.hasPrefix(apps.appendingPathComponent("cut.json").path + ":") == true)
    }
}
