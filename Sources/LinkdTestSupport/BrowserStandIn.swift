/// Browsers for the sign-in tests: Python programs that do what a browser does with a sign-in page, then run `then`
/// (Python, with `location` set to the app's link the page leads to), as the desktop hands that link to linkd.
package enum BrowserStandIn {
    /// The program's start: its imports and an opener that follows no redirect.
    private static let opener = """
        #!/usr/bin/python3
        import html.parser, subprocess, sys, time, urllib.error, urllib.parse, urllib.request
        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *arguments):
                return None
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), Stay)

        """

    /// A browser at GoTrue's `/authorize` page: `location` is where its redirect leads.
    package static func followingRedirect(then: String) -> String {
        opener + """
            try:
                opener.open(sys.argv[1])
                sys.exit("no redirect")
            except urllib.error.HTTPError as answer:
                location = answer.headers["Location"]

            """ + then
    }

    /// A browser at Apple's page: it posts the page's form to the Return URL, as the page's `onload` does (again
    /// while the Return URL's server is still starting); `location` is where the Return URL redirects.
    package static func postingAppleForm(then: String) -> String {
        opener + """
            class Form(html.parser.HTMLParser):
                action, fields = None, {}
                def handle_starttag(self, tag, attributes):
                    attributes = dict(attributes)
                    if tag == "form": self.action = attributes["action"]
                    if tag == "input": self.fields[attributes["name"]] = attributes["value"]
            form = Form()
            form.feed(opener.open(sys.argv[1]).read().decode())
            for attempt in range(50):
                try:
                    opener.open(form.action, urllib.parse.urlencode(form.fields).encode())
                    sys.exit("no redirect")
                except urllib.error.HTTPError as answer:
                    location = answer.headers["Location"]
                    break
                except urllib.error.URLError:
                    time.sleep(0.1)

            """ + then
    }
}
