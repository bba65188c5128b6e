extension PrivateSessionBus {
    /// The bus's configuration: a session bus listening on `address`, activating the services in `services`, and
    /// allowing everything.
    static func configuration(address: String, services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow send_destination="*"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    /// A bare `org.freedesktop.Application` whose `Open` fails with `org.example.Error.Refused: cannot open <uris>`;
    /// it writes `refusing` to `started` and prints `ready` once it owns the name.
    static func refusingService(started: String) -> String {
        service(
            name: appID,
            objectPath: "/org/example/LinkdTest",
            started: started,
            as: "refusing",
            handling: """
                XML = '<node><interface name="org.freedesktop.Application"><method name="Open">' \\
                      '<arg type="as" direction="in"/><arg type="a{sv}" direction="in"/></method></interface></node>'

                def on_call(connection, sender, path, interface, method, parameters, invocation):
                    uris = parameters.unpack()[0]
                    invocation.return_dbus_error("org.example.Error.Refused", "cannot open " + " ".join(uris))
                """
        )
    }

    /// An `org.freedesktop.Notifications` server that appends each notification to `log` as `summary<TAB>body`, then
    /// answers as `answer` says; it writes `notifications` to `started` and prints `ready` once it owns the name.
    static func notificationServer(log: String, started: String, answering answer: NotifyAnswer) -> String {
        let reply =
            switch answer {
            case .id: #"invocation.return_value(GLib.Variant("(u)", (1,)))"#
            case .never: "unanswered.append(invocation)  # kept, so that GDBus never replies"
            case .error: #"invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", "the test server fails")"#
            case .pressing(let button):
                // Notification 7, answered as a person would, a moment later: the button, then the close. A button's
                // key is the one linkd sent for it (actions are key, label, key, label).
                #"""
                invocation.return_value(GLib.Variant("(u)", (7,)))
                    key = actions[\#(button == .accept ? 0 : 2)]
                    def press():
                        connection.emit_signal(None, path, interface, "ActionInvoked", GLib.Variant("(us)", (7, key)))
                        connection.emit_signal(None, path, interface, "NotificationClosed", GLib.Variant("(uu)", (7, 2)))
                        return False
                    GLib.timeout_add(200, press)
                """#
            case .forgedThenDismissed:
                // Another connection on the bus presses the accept button (with the key linkd sent, and with
                // "accept"), then, a second later, the person dismisses the notification.
                #"""
                invocation.return_value(GLib.Variant("(u)", (7,)))
                    key = actions[0]
                    def forge():
                        other = Gio.DBusConnection.new_for_address_sync(
                            Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None),
                            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
                        for forged in (key, "accept"):
                            other.emit_signal(None, path, interface, "ActionInvoked", GLib.Variant("(us)", (7, forged)))
                        other.flush_sync(None)
                        with open("\#(log).forged", "a") as out:
                            out.write(other.get_unique_name() + "\n")
                        return False
                    def dismiss():
                        connection.emit_signal(None, path, interface, "NotificationClosed", GLib.Variant("(uu)", (7, 2)))
                        return False
                    GLib.timeout_add(200, forge)
                    GLib.timeout_add(1200, dismiss)
                """#
            }
        let capabilities =
            switch answer {
            case .pressing, .forgedThenDismissed: #"["body", "actions"]"#
            case .id, .never, .error: #"["body"]"#
            }
        return service(
            name: "org.freedesktop.Notifications",
            objectPath: "/org/freedesktop/Notifications",
            started: started,
            as: "notifications",
            handling: """
                XML = '<node><interface name="org.freedesktop.Notifications"><method name="Notify">' \\
                      '<arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>' \\
                      '<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>' \\
                      '<arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>' \\
                      '</method><method name="GetCapabilities"><arg type="as" direction="out"/></method>' \\
                      '<method name="CloseNotification"><arg type="u" direction="in"/></method></interface></node>'

                unanswered = []

                def on_call(connection, sender, path, interface, method, parameters, invocation):
                    if method == "GetCapabilities":
                        invocation.return_value(GLib.Variant("(as)", (\(capabilities),)))
                        return
                    if method == "CloseNotification":
                        invocation.return_value(None)
                        return
                    app, replaces, icon, summary, body, actions, hints, timeout = parameters.unpack()
                    with open("\(log)", "a") as out:
                        out.write(summary + "\\t" + body + "\\n")
                    \(reply)
                """
        )
    }

    /// A desktop portal's `org.freedesktop.portal.OpenURI` that appends each link it is asked to open to `log` and
    /// answers with a request handle, as xdg-desktop-portal does; it writes `portal` to `started` and prints `ready`
    /// once it owns the name.
    static func portalService(log: String, started: String) -> String {
        service(
            name: "org.freedesktop.portal.Desktop",
            objectPath: "/org/freedesktop/portal/desktop",
            started: started,
            as: "portal",
            handling: """
                XML = '<node><interface name="org.freedesktop.portal.OpenURI"><method name="OpenURI">' \\
                      '<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>' \\
                      '<arg type="o" direction="out"/></method></interface></node>'

                def on_call(connection, sender, path, interface, method, parameters, invocation):
                    parent, uri, options = parameters.unpack()
                    with open("\(log)", "a") as out:
                        out.write(uri + "\\n")
                    invocation.return_value(GLib.Variant("(o)", ("/org/freedesktop/portal/desktop/request/1/t",)))
                """
        )
    }

    /// A Python D-Bus service that owns `name` and serves, at `objectPath`, the interface that `handler` declares as
    /// `XML` and implements as `on_call`; once it owns the name it appends `label` to `started` and prints `ready`.
    private static func service(
        name: String,
        objectPath: String,
        started: String,
        as label: String,
        handling handler: String
    ) -> String {
        """
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib

        \(handler)

        def on_bus(connection, name):
            node = Gio.DBusNodeInfo.new_for_xml(XML)
            connection.register_object("\(objectPath)", node.interfaces[0], on_call, None, None)

        def on_name(connection, name):
            with open("\(started)", "a") as out:
                out.write("\(label)\\n")
            print("ready", flush=True)

        Gio.bus_own_name(Gio.BusType.SESSION, "\(name)", Gio.BusNameOwnerFlags.NONE, on_bus, on_name, None)
        GLib.MainLoop().run()

        """
    }

    /// The GApplication: `started` is written once the app is registered on the bus (it owns its name then); started
    /// by the harness (`LINKD_TEST_HOLD`), it also prints `ready` then.
    static func app(opened: String, started: String) -> String {
        """
        import os, sys
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio

        def on_startup(app):
            with open("\(started)", "a") as out:
                out.write("start " + " ".join(sys.argv[1:]) + "\\n")
            if os.environ.get("LINKD_TEST_HOLD"):
                print("ready", flush=True)

        def on_open(app, files, count, hint):
            with open("\(opened)", "a") as out:
                for f in files:
                    out.write(f.get_uri() + "\\n")

        class App(Gio.Application):
            def do_before_emit(self, platform_data):
                Gio.Application.do_before_emit(self, platform_data)
                token = platform_data.lookup_value("activation-token", None)
                if token is not None:
                    with open("\(started)", "a") as out:
                        out.write("activation-token " + token.get_string() + "\\n")

        app = App(application_id="\(appID)", flags=Gio.ApplicationFlags.HANDLES_OPEN)
        app.connect("startup", on_startup)
        app.connect("open", on_open)
        app.connect("activate", lambda app: None)
        app.set_inactivity_timeout(3000)
        if os.environ.get("LINKD_TEST_HOLD"):
            app.hold()
        sys.exit(app.run(sys.argv))

        """
    }
}
