import Testing

@testable import LinkdDesktop

/// `linkd status`'s report: its lines, and when it counts as healthy (exit 0).
@Suite struct DesktopStatusTests {
    static let healthy = DesktopStatus(
        desktopFile: "/d/applications/linkd.desktop",
        entry: .read(schemes: ["myapp"], problem: nil),
        mimeApps: "/c/mimeapps.list",
        isMimeAppsUnreadable: false,
        canAskGIO: true,
        schemes: [.init(scheme: "myapp", handler: "linkd.desktop")],
        daemon: .activatable(socket: "/r/linkd/socket"),
        units: .init(socket: "active", service: "inactive"),
        apps: [.init(name: "com.example.Notes", links: 4)],
        configProblems: []
    )

    @Test func aHealthyReportReadsLineByLine() {
        #expect(Self.healthy.isHealthy)
        #expect(
            Self.healthy.lines == [
                "desktop file: /d/applications/linkd.desktop (schemes: myapp)",
                "scheme myapp: GIO opens it with linkd.desktop (linkd)",
                "daemon: activatable by systemd (linkd.socket is active) on /r/linkd/socket",
                "systemd: linkd.socket active, linkd.service inactive",
                "programs: none running",
                "apps: com.example.Notes (4 links)",
            ]
        )
    }

    @Test func theUnitsOfRunningProgramsAreNamedAndAUnitNameIsShownAsText() {
        var status = Self.healthy
        status.units?.programs = ["app-linkd-com.example.Notes@0123456789abcdef.service", "app-linkd-x@1\u{1B}[31m"]
        #expect(
            status.lines.contains(
                "programs: 2 running, each in a unit of its own: app-linkd-com.example.Notes@0123456789abcdef.service, "
                    + "app-linkd-x@1\\u{1B}[31m"
            )
        )
        status.units = nil
        #expect(!status.lines.contains { $0.hasPrefix("programs:") }, "no manager, no units to name")
    }

    @Test func configProblemsAreCountedOnceAndPointAtCheck() {
        var status = Self.healthy
        status.configProblems = ["/a.json: $: not valid JSON"]
        #expect(status.lines.last == "config: 1 problem; run 'linkd check'")
        status.configProblems.append("/b.json: $.links: missing")
        #expect(status.lines.last == "config: 2 problems; run 'linkd check'")
        #expect(status.isHealthy)  // they are 'linkd check''s to report
        #expect(status.problems.map { $0.kind } == ["config", "config"])
    }

    @Test(arguments: [
        (
            DesktopStatus.SchemeHandler(scheme: "myapp", handler: "org.example.Other.desktop"),
            DesktopStatus.Daemon.activatable(socket: "/s")
        ),
        (DesktopStatus.SchemeHandler(scheme: "myapp", handler: nil), .listening(socket: "/s")),
        (DesktopStatus.SchemeHandler(scheme: "myapp", handler: "linkd.desktop"), .noRuntimeDirectory),
    ])
    func isUnhealthyWhenASchemeOpensElsewhereOrThereIsNoPlaceForTheDaemon(
        _ scheme: DesktopStatus.SchemeHandler,
        _ daemon: DesktopStatus.Daemon
    ) {
        var status = Self.healthy
        status.schemes = [scheme]
        status.daemon = daemon
        #expect(!status.isHealthy)
    }

    /// A daemon that is down, or left a stale socket file, is started by the next `linkd open`: reachable.
    @Test(arguments: [DesktopStatus.Daemon.down(socket: "/s"), .staleSocket(socket: "/s")])
    func aDaemonTheNextOpenStartsCountsAsReachable(_ daemon: DesktopStatus.Daemon) {
        var status = Self.healthy
        status.daemon = daemon
        #expect(status.isHealthy)
    }

    @Test func saysWhatIsWrongInPlainWords() {
        var status = Self.healthy
        status.entry = .read(schemes: ["myapp"], problem: "Exec= has its %u quoted or joined to other text: x")
        status.isMimeAppsUnreadable = true
        status.schemes = [
            .init(scheme: "myapp", handler: "org.example.Other.desktop"), .init(scheme: "b", handler: nil),
        ]
        status.daemon = .staleSocket(socket: "/r/linkd/socket")
        status.units = nil
        status.apps = []
        #expect(
            status.lines == [
                "desktop file: /d/applications/linkd.desktop (schemes: myapp)",
                "  problem: Exec= has its %u quoted or joined to other text: x",
                "mimeapps.list: /c/mimeapps.list cannot be read as UTF-8 text; linkd leaves it as it is",
                "scheme myapp: GIO opens it with org.example.Other.desktop, not linkd",
                "scheme b: no handler (run 'linkd register b')",
                "daemon: down (stale socket file /r/linkd/socket)",
                "systemd: no user manager answers (linkd starts on demand)",
                "apps: none",
            ]
        )
        #expect(status.problems.map { $0.kind } == ["desktop_file", "mimeapps_list"])
    }
}
