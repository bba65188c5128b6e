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

    @Test func keepsALastLineThatEndsInACarriageReturn() {
        var list = MimeAppsList("[X]\nk=v\r")
        #expect(list.text == "[X]\nk=v\r\n")
        #expect(MimeAppsList(list.text) == list)
        list.set("x-scheme-handler/myapp", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(list.text == "[X]\nk=v\r\n\n[Default Applications]\nx-scheme-handler/myapp=linkd.desktop\n")
    }
}
