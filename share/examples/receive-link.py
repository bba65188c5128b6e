#!/usr/bin/env python3
"""Receive links from linkd as an `exec` action, in Python.

In an apps.d file (`~/.config/linkd/apps.d/com.example.Notes.json`):

    {"match": "com.example.notes://note/{id}",
     "action": {"exec": ["/path/to/receive-link.py", "/home/me/notes-links.jsonl"]}}

For each link, linkd starts this program and writes one JSON line to its standard input:
{"id", "app", "route", "fields", "url"}, with the real values (secrets included: the program acts for
the app). `linkd open` reports the link delivered once the line has been read; from then on the program
may take as long as it likes.

This example appends one JSON line per link to the file named by its argument (an absolute path: the
program runs in `/`), or prints it to standard output, which linkd writes to its log. The line holds
the link's id, app, route and fields, with every secret replaced by "<redacted>"; the link itself
(`url`) is not written, since it may carry the secrets. A link whose id is in the file already is a
repeat (linkd hands a link over again, with the same id, when it stopped before it saw the
program read it) and is skipped.
"""

import json
import sys

# The field names linkd treats as secrets. Their values here are real tokens: never write them anywhere.
SECRET_NAMES = {
    "access_token", "refresh_token", "provider_token", "provider_refresh_token", "token", "tokenId",
    "token_hash", "code", "oobCode", "id_token", "apiKey",
}


def main() -> int:
    # Read the link first: until it has been read, linkd's time limit runs.
    link = json.loads(sys.stdin.readline())
    output = sys.argv[1] if len(sys.argv) > 1 else None

    if output is not None and already_noted(output, link["id"]):
        print(f"link {link['id']} was noted before; skipped")
        return 0

    fields = {name: "<redacted>" if name in SECRET_NAMES else value for name, value in link["fields"].items()}
    line = json.dumps({"id": link["id"], "app": link["app"], "route": link["route"], "fields": fields})
    if output is None:
        print(line)
    else:
        with open(output, "a", encoding="utf-8") as file:
            file.write(line + "\n")
    # Here the app would act on the link: open note fields["id"], say.
    return 0


def already_noted(output: str, link_id: str) -> bool:
    """Whether the file has a line for this link id already."""
    try:
        with open(output, encoding="utf-8") as file:
            return any(json.loads(line).get("id") == link_id for line in file if line.strip())
    except FileNotFoundError:
        return False


if __name__ == "__main__":
    sys.exit(main())
