import LinkdDesktop
import Testing

@Suite struct MimeAppsListTests {
    @Test func setsADefaultKeepingEveryOtherLine() {
        var list = MimeAppsList(
            "# comment\n[Added Associations]\nimage/png=eog.desktop;\n\n[Default Applications]\ntext/html=firefox.desktop\n\n[X]\nk=v\n"
        )
        list.set("x-scheme-handler/myapp", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(
            list.text
                == "# comment\n[Added Associations]\nimage/png=eog.desktop;\n\n[Default Applications]\ntext/html=firefox.desktop\nx-scheme-handler/myapp=linkd.desktop\n\n[X]\nk=v\n"
        )
        list.set("x-scheme-handler/myapp", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(list.value("x-scheme-handler/myapp", in: MimeAppsList.defaults) == "linkd.desktop")
    }

    @Test func addsTheSectionWhenMissing() {
        var empty = MimeAppsList(nil)
        empty.set("x-scheme-handler/a", "linkd.desktop", in: MimeAppsList.defaults)
        #expect(empty.text == "[Default Applications]\nx-scheme-handler/a=linkd.desktop\n")
    }

    @Test func removesOnlyLinkdFromAList() {
        var list = MimeAppsList(
            "[Added Associations]\nx-scheme-handler/a=other.desktop;linkd.desktop;\nx-scheme-handler/b=linkd.desktop;\n"
        )
        list.remove("linkd.desktop", from: "x-scheme-handler/a", in: MimeAppsList.added)
        list.remove("linkd.desktop", from: "x-scheme-handler/b", in: MimeAppsList.added)
        list.remove("linkd.desktop", from: "x-scheme-handler/c", in: MimeAppsList.added)
        #expect(list.text == "[Added Associations]\nx-scheme-handler/a=other.desktop;\n")
    }

    @Test func readsAndPutsBackAWholeLineInItsPlace() {
        let text = "\n[Default Applications]\nx-scheme-handler/a=com.example.Notes.desktop\ntext/html=firefox.desktop\n"
        var list = MimeAppsList(text)
        let line = list.line("x-scheme-handler/a", in: MimeAppsList.defaults)
        #expect(line == "x-scheme-handler/a=com.example.Notes.desktop")
        #expect(list.keys(in: MimeAppsList.defaults) == ["x-scheme-handler/a", "text/html"])
        list.set("x-scheme-handler/a", "linkd.desktop", in: MimeAppsList.defaults)
        list.setLine(line ?? "", for: "x-scheme-handler/a", in: MimeAppsList.defaults)
        #expect(list.text == text)
        #expect(!list.hasNoEntries)
        #expect(MimeAppsList("\n[Default Applications]\n\n[Added Associations]\n").hasNoEntries)
        #expect(MimeAppsList.desktopIDs(in: "a.desktop;b.desktop;") == ["a.desktop", "b.desktop"])
    }
}
