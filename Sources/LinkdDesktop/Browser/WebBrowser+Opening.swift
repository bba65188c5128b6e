package import LinkdSystem

extension WebBrowser {
    /// Passes `url` to the browser, detached: its `Exec=` command in a session of its own, standard streams on
    /// `/dev/null`, with `environment` less linkd's own variables (an activation token, `XDG_ACTIVATION_TOKEN` or
    /// `DESKTOP_STARTUP_ID`, goes on, so that the browser may take the focus); or `Open` over D-Bus.
    ///
    /// - Throws: ``SystemError`` when the browser cannot be started or the D-Bus call fails.
    package func open(_ url: String, environment: [String: String]) throws(SystemError) {
        switch launch {
        case .command(let exec, let name, let icon):
            var browser = Subprocess(
                exec.argv(opening: url, name: name, icon: icon, file: file),
                environment: Self.passedOn(environment)
            )
            browser.startsNewSession = true
            let running = try browser.spawn()
            running.exitDescriptor.close()
        case .dbus(let appID):
            try SessionBus.openURIs([url], appID: appID, timeout: .seconds(10))
        }
    }

    /// `environment` without what names linkd or its own desktop entry (`LINKD_*`, `GIO_LAUNCHED_DESKTOP_FILE`,
    /// `GIO_LAUNCHED_DESKTOP_FILE_PID`), which the browser has no use for.
    static func passedOn(_ environment: [String: String]) -> [String: String] {
        environment.filter { key, _ in
            !key.hasPrefix("LINKD_") && key != "GIO_LAUNCHED_DESKTOP_FILE" && key != "GIO_LAUNCHED_DESKTOP_FILE_PID"
        }
    }
}
