package import LinkdSystem

extension WebBrowser {
    /// Passes `url` to the browser, detached: its `Exec=` command in a session of its own, standard streams on
    /// `/dev/null`, with `environment` less linkd's own variables (an activation token, `XDG_ACTIVATION_TOKEN` or
    /// `DESKTOP_STARTUP_ID`, goes on, so that the browser may take the focus); or `Open` over D-Bus.
    ///
    /// - Returns: the browser's process (`nil` over D-Bus, or when it is gone already).
    /// - Throws: ``SystemError`` when the browser cannot be started or the D-Bus call fails.
    @discardableResult
    package func open(_ url: String, environment: [String: String]) throws(SystemError) -> ProcessIdentity? {
        switch launch {
        case .command(let exec, let name, let icon):
            var browser = Subprocess(
                exec.argv(opening: url, name: name, icon: icon, file: file),
                environment: Self.passedOn(environment)
            )
            browser.startsNewSession = true
            let running = try browser.spawn()
            running.exitDescriptor.close()
            return ProcessIdentity.of(running.pid)
        case .dbus(let appID):
            try SessionBus.openURIs([url], appID: appID, timeout: .seconds(10))
            return nil
        }
    }

    /// The process that opens a link when this process becomes the browser (``become(opening:environment:)``): this
    /// one, whose pid and start time the browser keeps; `nil` for a browser asked over D-Bus.
    package var processBecoming: ProcessIdentity? {
        guard case .command = launch else { return nil }
        return ProcessIdentity.of(CurrentProcess.id)
    }

    /// Passes `url` to the browser by becoming it: the process is replaced by the browser's `Exec=` command, in a
    /// session of its own with standard streams on `/dev/null` and `environment` less linkd's own variables — the
    /// launch the click would have made without linkd. A D-Bus-activatable browser is asked over D-Bus instead, and
    /// this returns.
    ///
    /// - Throws: ``SystemError`` when the browser cannot be run (the process is then as it was) or the D-Bus call
    ///   fails.
    package func become(opening url: String, environment: [String: String]) throws(SystemError) {
        guard case .command(let exec, let name, let icon) = launch else {
            try open(url, environment: environment)
            return
        }
        let argv = exec.argv(opening: url, name: name, icon: icon, file: file)
        throw Subprocess.replaceProcess(with: argv, environment: Self.passedOn(environment))
    }

    /// `environment` without what names linkd or its own desktop entry (`LINKD_*`, `GIO_LAUNCHED_DESKTOP_FILE`,
    /// `GIO_LAUNCHED_DESKTOP_FILE_PID`), which the browser has no use for.
    static func passedOn(_ environment: [String: String]) -> [String: String] {
        environment.filter { key, _ in
            !key.hasPrefix("LINKD_") && key != "GIO_LAUNCHED_DESKTOP_FILE" && key != "GIO_LAUNCHED_DESKTOP_FILE_PID"
        }
    }
}
