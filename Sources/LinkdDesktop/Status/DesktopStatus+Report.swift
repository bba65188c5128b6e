package import LinkdFormats

extension DesktopStatus {
    /// The report as `linkd status` prints it, one line per fact; the config problems are counted, not listed.
    package var lines: [String] {
        var lines: [String] = []
        switch entry {
        case .missing:
            lines.append("desktop file: none (run 'linkd register')")
        case .unreadable:
            lines.append("desktop file: \(desktopFile) cannot be read")
        case .read(let schemes, let problem):
            lines.append("desktop file: \(desktopFile) (schemes: \(schemes.joined(separator: ", ")))")
            if let problem { lines.append("  problem: \(problem)") }
        }
        if isMimeAppsUnreadable {
            lines.append("mimeapps.list: \(mimeApps) cannot be read as UTF-8 text; linkd leaves it as it is")
        }
        for scheme in schemes {
            let line =
                if !canAskGIO {
                    "cannot ask GIO (gio is not installed)"
                } else if let handler = scheme.handler {
                    "GIO opens it with \(handler)" + (scheme.opensInLinkd ? " (linkd)" : ", not linkd")
                } else {
                    "no handler (run 'linkd register \(scheme.scheme)')"
                }
            lines.append("scheme \(scheme.scheme): \(line)")
        }
        let daemonLine =
            switch daemon {
            case .listening(let socket): "listening on \(socket)"
            case .activatable(let socket): "activatable by systemd (linkd.socket is active) on \(socket)"
            case .staleSocket(let socket): "down (stale socket file \(socket))"
            case .down: "down (the next 'linkd open' starts it)"
            case .noRuntimeDirectory: "no XDG_RUNTIME_DIR"
            }
        lines.append("daemon: " + daemonLine)
        lines.append(
            units.map { "systemd: linkd.socket \($0.socket), linkd.service \($0.service)" }
                ?? "systemd: no user manager answers (linkd starts on demand)"
        )
        if let programs = units?.programs {
            lines.append(
                "programs: "
                    + (programs.isEmpty
                        ? "none running"
                        : "\(programs.count) running, each in a unit of its own: "
                            + programs.map(DisplayText.sanitize).joined(separator: ", "))
            )
        }
        lines.append(
            "apps: " + (apps.isEmpty ? "none" : apps.map { "\($0.name) (\($0.links) links)" }.joined(separator: ", "))
        )
        if !configProblems.isEmpty {
            let count = configProblems.count == 1 ? "1 problem" : "\(configProblems.count) problems"
            lines.append("config: \(count); run 'linkd check'")
        }
        return lines
    }

    /// The report as one JSON object (`linkd status --json`):
    ///
    /// `{"ok": …, "schemes": [{"scheme", "handler", "linkd"}], "desktop_file", "mimeapps_list",
    /// "socket": {"path", "state"}, "units": {"linkd.socket", "linkd.service", "programs"} or null,
    /// "apps": [{"app", "links"}], "problems": [{"kind", "message"}]}`.
    package var json: JSONValue {
        let schemes = schemes.map { scheme in
            JSONValue.object([
                ("scheme", .string(scheme.scheme)), ("handler", scheme.handler.map(JSONValue.string) ?? .null),
                ("linkd", .bool(scheme.opensInLinkd)),
            ])
        }
        let state =
            switch daemon {
            case .listening: "listening"
            case .activatable: "activatable"
            case .staleSocket: "stale"
            case .down: "down"
            case .noRuntimeDirectory: "no_runtime_dir"
            }
        let units = units.map {
            JSONValue.object([
                ("linkd.socket", .string($0.socket)), ("linkd.service", .string($0.service)),
                ("programs", .array($0.programs.map(JSONValue.string))),
            ])
        }
        return .object([
            ("ok", .bool(isHealthy)),
            ("schemes", .array(schemes)),
            ("desktop_file", entry == .missing ? .null : .string(desktopFile)),
            ("mimeapps_list", .string(mimeApps)),
            ("socket", .object([("path", daemon.socket.map(JSONValue.string) ?? .null), ("state", .string(state))])),
            ("units", units ?? .null),
            ("apps", .array(apps.map { .object([("app", .string($0.name)), ("links", .number(Int64($0.links)))]) })),
            (
                "problems",
                .array(problems.map { .object([("kind", .string($0.kind)), ("message", .string($0.message))]) })
            ),
        ])
    }

    /// Every problem found, with its kind: `desktop_file`, `mimeapps_list`, `gio` or `config`.
    package var problems: [(kind: String, message: String)] {
        var problems: [(kind: String, message: String)] = []
        switch entry {
        case .unreadable: problems.append(("desktop_file", "\(desktopFile) cannot be read"))
        case .read(_, let problem?): problems.append(("desktop_file", problem))
        case .missing, .read: break
        }
        if isMimeAppsUnreadable { problems.append(("mimeapps_list", "\(mimeApps) cannot be read as UTF-8 text")) }
        if !canAskGIO && !schemes.isEmpty { problems.append(("gio", "gio is not installed")) }
        return problems + configProblems.map { ("config", $0) }
    }
}
