#!/usr/bin/env python3
"""Receive links from linkd's `forward` action, in Python: what a running app does.

    subscribe.py APP [OUTPUT]

In an apps.d file, the app's links say `"action": "forward"`:

    {"app": "com.example.Notes",
     "links": [{"match": "com.example.notes://inbox/{id}", "action": "forward"}]}

The app connects to linkd's socket, `$XDG_RUNTIME_DIR/linkd/socket`, sends one line,
{"op": "subscribe", "app": APP} (with "key": the contents of $XDG_RUNTIME_DIR/linkd/keys/APP, when linkd
wrote one, to receive the app's forwarded sign-ins too), and is answered
{"ok": true, "app": APP, "state": "subscribed"}. From
then on linkd writes one JSON line per link, {"id", "app", "route", "fields", "url"} with the real
values: first the links that waited for the app (10 minutes at most), then each new one as it is
opened. A link counts as delivered once it is written to the socket, and is never sent again. A
subscriber that takes no line for 5 seconds is let go; a last line without its newline is then no
link, and comes again, whole, to the next subscription.

This example appends one JSON line per link to OUTPUT (standard output without one): the id, app,
route and fields, every secret replaced by "<redacted>", never the link itself. When there is no
daemon yet, or the daemon stops, it tries again every second; links opened meanwhile wait for it.
"""

import json
import os
import socket
import sys
import time

# The field names linkd treats as secrets. Their values here are real tokens: never write them anywhere.
SECRET_NAMES = {
    "access_token", "refresh_token", "provider_token", "provider_refresh_token", "token", "tokenId",
    "token_hash", "code", "oobCode", "id_token", "apiKey",
}


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print("usage: subscribe.py APP [OUTPUT]", file=sys.stderr)
        return 64
    app = sys.argv[1]
    output = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) == 3 else sys.stdout
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "linkd", "socket")
    waiting = False
    while True:
        try:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            connection.close()
            if not waiting:
                print(f"waiting for linkd at {path}", file=sys.stderr, flush=True)
                waiting = True
            time.sleep(1)  # no daemon listens yet: the links wait in linkd's spool meanwhile
            continue
        waiting = False
        with connection, connection.makefile("rb") as lines:
            request = {"op": "subscribe", "app": app}
            key = subscriber_key(app)
            if key:
                request["key"] = key  # the app's sessions too ({"signin": "forward"}), not only its links
            connection.sendall(json.dumps(request).encode() + b"\n")
            answer = json.loads(lines.readline() or b"{}")
            if not answer.get("ok"):
                print(f"linkd refused the subscription: {answer.get('error')}", file=sys.stderr)
                return 1
            print(f"subscribed: {app}", file=sys.stderr, flush=True)
            for line in lines:
                if not line.endswith(b"\n"):
                    break  # cut off: linkd let this subscriber go mid-line, and sends that link again
                link = json.loads(line)
                note(link, output)
        print("linkd went away; subscribing again", file=sys.stderr, flush=True)


def subscriber_key(app: str):
    """The app's subscriber key, which linkd writes for an app whose sign-ins are forwarded; None without one."""
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "linkd", "keys", app)
    try:
        with open(path, encoding="ascii") as file:
            return file.read().strip() or None
    except FileNotFoundError:
        return None


def note(link: dict, output) -> None:
    """Writes the link's id, app, route and fields, without its secrets; an app would open the link here."""
    fields = {name: "<redacted>" if name in SECRET_NAMES else value for name, value in link["fields"].items()}
    output.write(json.dumps({"id": link["id"], "app": link["app"], "route": link["route"], "fields": fields}) + "\n")
    output.flush()


if __name__ == "__main__":
    sys.exit(main())
