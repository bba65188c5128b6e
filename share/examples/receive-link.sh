#!/bin/sh
# Receive links from linkd as an `exec` action, in POSIX sh.
#
# In an apps.d file (~/.config/linkd/apps.d/com.example.Notes.json):
#
#     {"match": "com.example.notes://note/{id}",
#      "action": {"exec": ["/path/to/receive-link.sh", "/home/me/notes-links.jsonl"]}}
#
# linkd writes the link to standard input as one JSON line, {"id", "app", "route", "fields", "url"},
# with the real values (secrets included), and puts the link's id in LINKD_LINK_ID. This example
# appends one JSON line per link to the file named by its argument (an absolute path: the program runs
# in /), or prints it to standard output, which linkd writes to its log: the id, app, route and fields,
# every secret replaced by "<redacted>", and never the link itself. A link whose id is in the file
# already is a repeat and is skipped.
#
# JSON is read with python3 (found in linkd's fixed PATH, ~/.local/bin:/usr/local/bin:/usr/bin:/bin);
# `jq` would do as well where it is installed, which Debian does not do by default.
set -eu

# Read the link first: until it has been read, linkd's time limit runs.
IFS= read -r link || [ -n "$link" ]
id=${LINKD_LINK_ID:?this program is started by linkd}
output=${1:-}

if [ -n "$output" ] && [ -f "$output" ] && grep -q "^{\"id\": \"$id\"" "$output"; then
    echo "link $id was noted before; skipped"
    exit 0
fi

# The fields without their secrets, as one JSON line; the link goes through a pipe, never argv.
line=$(printf '%s\n' "$link" | python3 -c '
import json, sys
secrets = {"access_token", "refresh_token", "provider_token", "provider_refresh_token", "token",
           "tokenId", "token_hash", "code", "oobCode", "id_token", "apiKey"}
link = json.loads(sys.stdin.readline())
fields = {name: "<redacted>" if name in secrets else value for name, value in link["fields"].items()}
print(json.dumps({"id": link["id"], "app": link["app"], "route": link["route"], "fields": fields}))
')

if [ -n "$output" ]; then
    printf '%s\n' "$line" >> "$output"
else
    printf '%s\n' "$line"
fi
# Here the app would act on the link.
