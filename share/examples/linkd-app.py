#!/usr/bin/python3
"""An app that receives its links and sessions from linkd over D-Bus, in Python (PyGObject, Gio).

    linkd-app.py APP [GApplication options]

In an apps.d file, the app's links say "forward", and may say how linkd starts the app when it is not
running:

    {"app": "com.example.Notes",
     "links": [{"match": "com.example.notes://note/{id}", "action": {"forward": {"start": "desktop"}}}]}

The app is a GApplication whose id is APP. It calls linkd's interface on the session bus,
io.linkd.Linkd1 at /io/linkd/Linkd1: Subscribe(APP, KEY), where KEY is the contents of
$XDG_RUNTIME_DIR/linkd/keys/APP (empty in a Flatpak sandbox, whose app id proves the app). linkd then
sends it the signals Link(id, route, fields, url) and Session(id, route, backend, session), addressed to
its connection alone, once each: first what waited for the app, then each as it comes. A call to linkd
starts it when it is not running, so a first Ping comes before the key is read.

Started by its desktop entry (DBusActivatable=true: D-Bus runs it with --gapplication-service), the
app stays up and receives its links the same way. It prints one line per link or session, and never a
token or the link itself.
"""

import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

LINKD = "io.linkd.Linkd1"
PATH = "/io/linkd/Linkd1"


def say(line):
    print(line, flush=True)


def app_key(app):
    """The key linkd keeps for APP; empty when there is none to read (a Flatpak sandbox)."""
    path = os.path.join(os.environ.get("XDG_RUNTIME_DIR", ""), "linkd", "keys", app)
    try:
        with open(path, encoding="ascii") as file:
            return file.read().strip()
    except OSError:
        return ""


def on_signal(connection, sender, path, interface, signal, parameters):
    if signal == "Link":
        _id, route, fields, _url, _platform_data = parameters.unpack()
        say("link %s %s" % (route, " ".join("%s=%s" % item for item in sorted(fields.items()))))
    elif signal == "Session":
        _id, _route, backend, session, _platform_data = parameters.unpack()
        say("signed in as %s (%s)" % (session.get("user_email", "?"), backend))


class App(Gio.Application):
    def do_startup(self):
        Gio.Application.do_startup(self)
        self.hold()  # the app runs on, waiting for its links
        bus = self.get_dbus_connection()
        app = self.get_application_id()
        bus.signal_subscribe(LINKD, LINKD, None, PATH, None, Gio.DBusSignalFlags.NONE, on_signal)
        bus.call_sync(LINKD, PATH, "org.freedesktop.DBus.Peer", "Ping", None, None,
                      Gio.DBusCallFlags.NONE, -1, None)
        try:
            bus.call_sync(LINKD, PATH, LINKD, "Subscribe", GLib.Variant("(ss)", (app, app_key(app))),
                          None, Gio.DBusCallFlags.NONE, -1, None)
        except GLib.Error as error:
            say("linkd refused: %s" % Gio.DBusError.get_remote_error(error))
            self.release()
            return
        say("subscribed as %s" % app)

    def do_activate(self):
        pass  # started by its desktop entry or by D-Bus: the links come through the subscription


if __name__ == "__main__":
    if len(sys.argv) < 2:
        say("usage: linkd-app.py APP [GApplication options]")
        sys.exit(64)
    sys.exit(App(application_id=sys.argv[1]).run([sys.argv[0]] + sys.argv[2:]))
