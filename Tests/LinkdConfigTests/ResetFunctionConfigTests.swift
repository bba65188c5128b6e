import LinkdConfig
import LinkdFormats
import Testing

/// An App Services backend's `resetFunction` and `resetArguments`, read and checked.
@Suite struct ResetFunctionConfigTests {
    /// An app whose backend of `kind` has `members` beside its required ones, and the decoder's complaints.
    static func decode(_ members: String, kind: String = "appservices") -> (AppConfig?, [String]) {
        let key = kind == "appservices" ? #""appId": "n-1""# : #""apiKey": "k""#
        let text = #"""
            {"app": "com.example.Notes", "links": [{"match": "https://n.example/reset", "format": "\#(kind)", "action": "reset"}],
             "backend": {"kind": "\#(kind)", "url": "https://h.example", \#(key)\#(members)}}
            """#
        var decoder = AppConfigDecoder(file: "notes.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = decoder.decode(Array(text.utf8))
        return (app, decoder.errors.map { "\($0.path): \($0.problem)" })
    }

    @Test(
        arguments: [
            ("", nil), (#", "resetFunction": false"#, nil), (#", "resetFunction": true"#, "[]"),
            (#", "resetFunction": true, "resetArguments": ["es", 2, {"q": null}]"#, #"["es", 2, {"q": null}]"#),
        ] as [(String, String?)]
    )
    func theFunctionAndItsArgumentsAreRead(_ members: String, _ arguments: String?) throws {
        let (app, errors) = Self.decode(members)
        #expect(errors.isEmpty)
        #expect(try #require(app?.backend).resetFunctionArguments == arguments)
    }

    @Test(arguments: [
        (#", "resetFunction": "yes""#, "$.backend.resetFunction: expected true or false"),
        (
            #", "resetArguments": ["es"]"#,
            #"$.backend.resetArguments: arguments go to a reset function: set "resetFunction": true"#
        ),
        (
            #", "resetFunction": true, "resetArguments": "es""#,
            "$.backend.resetArguments: expected an array of the reset function's arguments"
        ),
    ])
    func aWrongKeyIsNamedAndTheAppDoesNotLoad(_ members: String, _ problem: String) {
        let (app, errors) = Self.decode(members)
        #expect(app == nil)
        #expect(errors == [problem])
    }

    @Test func aSupabaseBackendHasNoResetFunction() {
        let (app, errors) = Self.decode(#", "resetFunction": true"#, kind: "supabase")
        #expect(app == nil)
        #expect(errors.first?.hasPrefix("$.backend.resetFunction: unknown key") == true, "\(errors)")
    }
}

/// A Supabase backend's `emailCodes`: its emails carry the 6-digit code.
@Suite struct EmailCodesConfigTests {
    private func decode(_ members: String, kind: String = "supabase") -> (AppConfig?, [String]) {
        ResetFunctionConfigTests.decode(members, kind: kind)
    }

    @Test(arguments: [("", false), (#", "emailCodes": false"#, false), (#", "emailCodes": true"#, true)])
    func theFlagIsRead(_ members: String, _ expected: Bool) throws {
        let (app, errors) = decode(members)
        #expect(errors.isEmpty)
        #expect(try #require(app?.backend).emailsCarryCodes == expected)
    }

    @Test func aWrongValueOrAnAppServicesBackendIsNamed() {
        let (wrong, wrongErrors) = decode(#", "emailCodes": "yes""#)
        #expect(wrong == nil && wrongErrors == ["$.backend.emailCodes: expected true or false"])
        let (services, serviceErrors) = decode(#", "emailCodes": true"#, kind: "appservices")
        #expect(services == nil)
        #expect(serviceErrors.first?.hasPrefix("$.backend.emailCodes: unknown key") == true, "\(serviceErrors)")
    }
}
