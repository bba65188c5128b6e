"""Sign in with Apple's Return URL for a desktop app that linkd signs in (a WSGI application).

Apple answers a sign-in by posting a form (response_mode=form_post) to the Return URL registered for
the app's Services ID: a page on the web, since a desktop app has no https address of its own. This
page sends the browser on to the app's sign-in link with Apple's fields (code, id_token, state, user,
or error) in the fragment; the browser hands that link to linkd, which checks that the state and the
nonce are those of the sign-in `linkd login --provider apple` started, and only then signs in.

Serve it with any WSGI server (gunicorn, uwsgi, mod_wsgi) at the Return URL, and set APP_LINK (or the
environment variable LINKD_APPLE_APP_LINK) to the app's signin link with format "apple". To try it
locally: python3 apple-return.py PORT. It keeps nothing and logs nothing of what passes through it.
"""

import html
import os
import sys
import urllib.parse
from wsgiref.simple_server import make_server

APP_LINK = os.environ.get("LINKD_APPLE_APP_LINK", "com.example.notes://apple")
FIELDS = ("code", "id_token", "state", "user", "error")
LARGEST_FORM = 64 * 1024


def application(environ, start_response):
    if environ.get("REQUEST_METHOD") != "POST":
        start_response("405 Method Not Allowed", [("Allow", "POST"), ("Content-Type", "text/plain")])
        return [b"Sign in with Apple posts its answer here.\n"]
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = -1
    if not 0 < length <= LARGEST_FORM:
        start_response("400 Bad Request", [("Content-Type", "text/plain")])
        return [b"Expected Apple's form.\n"]
    body = environ["wsgi.input"].read(length).decode("utf-8", "replace")
    form = urllib.parse.parse_qs(body, keep_blank_values=True)
    fields = [(name, form[name][0]) for name in FIELDS if name in form]
    target = APP_LINK + "#" + urllib.parse.urlencode(fields, quote_via=urllib.parse.quote)
    page = (
        '<!DOCTYPE html><meta charset="utf-8"><title>Signing in</title>'
        '<p><a href="%s">Continue in the app</a></p>' % html.escape(target)
    )
    start_response(
        "303 See Other",
        [
            ("Location", target),
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
        ],
    )
    return [page.encode("utf-8")]


if __name__ == "__main__":
    with make_server("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8000, application) as server:
        server.serve_forever()
