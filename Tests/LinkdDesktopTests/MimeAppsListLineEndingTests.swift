import LinkdDesktop
import Testing

/// Line endings other than a bare LF: found by the `desktop` fuzz target (Fuzz/found/desktop/line-ending-in-cr).
@Suite struct MimeAppsListLineEndingTests {
    @Test func keepsCRLFLinesAsTheyWere() {
        let text =
            "[Default Applications]\r\ntext/html=firefox.desktop\r\n\r\n[Added Associations]\r\nimage/png=eog.desktop;\r\n"
        let list = MimeAppsList(text)
        #expect(list.text == text)
        #expect(MimeAppsList(list.text) == list)
    }

    /// A CR LF file's headers end in a CR: they are its sections all the same (an edit went to a second section of
    /// the same name), and what linkd writes there ends in CR LF like its neighbours.
    @Test func readsAndEditsTheSectionsOfACRLFFile() throws {
        let text =
            "[Default Applications]\r\ntext/html=firefox.desktop\r\n\r\n[Added Associations]\r\nimage/png=eog.desktop;\r\n"
        var list = MimeAppsList(text)
        #expect(list.value("text/html", in: MimeAppsList.defaults) == "firefox.desktop")
        #expect(list.keys(in: MimeAppsList.added) == ["image/png"])
        list.set("x-scheme-handler/myapp", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(
            list.text
                == "[Default Applications]\r\ntext/html=firefox.desktop\r\nx-scheme-handler/myapp=linkd.desktop\r\n\r\n"
                + "[Added Associations]\r\nimage/png=eog.desktop;\r\n"
        )
        #expect(list.value("x-scheme-handler/myapp", in: MimeAppsList.defaults) == "linkd.desktop")
        let line = try #require(list.line("x-scheme-handler/myapp", in: MimeAppsList.defaults))
        #expect(MimeAppsList.desktopIDs(in: String(line.split(separator: "=")[1])) == ["linkd.desktop"])
        list.remove("linkd.desktop", from: "x-scheme-handler/myapp", in: MimeAppsList.defaults)
        #expect(list.text == text)
    }

    @Test func keepsALastLineThatEndsInACarriageReturn() {
        var list = MimeAppsList("[X]\nk=v\r")
        #expect(list.text == "[X]\nk=v\r\n")
        #expect(MimeAppsList(list.text) == list)
        list.set("x-scheme-handler/myapp", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(list.text == "[X]\nk=v\r\n\n[Default Applications]\nx-scheme-handler/myapp=linkd.desktop\n")
    }
}
