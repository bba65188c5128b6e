import LinkdClient

/// The lines the README and the app developers' guide show a Swift app, compiled as they are written (the
/// documentation tests check that each is here). The example app the tests run, `linkd-example-app`, does the same
/// with the app it is given.
enum ClientReadmeExample {
    static func receiveNotes(openNote: @escaping (String?) -> Void) async throws {
        let linkd = try await LinkdClient.subscribe(app: "com.example.Notes")
        for await event in linkd.events {
            if case .link(let link) = event { openNote(link.fields["id"]) }
        }
    }
}
