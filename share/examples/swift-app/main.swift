// An app that receives its links and sessions from linkd: run it as `linkd-example-app APP`, with APP's apps.d file
// sending its links to it (`"action": "forward"`, or `{"signin": "forward"}` for sign-ins). It prints one line per
// link or session, and never a token: a real app would open the note, or keep the session, here.
import Foundation
import LinkdClient

/// Prints a line at once, also into a pipe or a file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

guard CommandLine.arguments.count == 2 else {
    say("usage: linkd-example-app APP")
    exit(64)
}
do {
    let linkd = try await LinkdClient.subscribe(app: CommandLine.arguments[1])
    say("subscribed as \(linkd.app)")
    for await event in linkd.events {
        switch event {
        case .link(let link):
            let fields = link.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            say("link \(link.route) \(fields.joined(separator: " "))")
        case .session(let session):
            say("signed in as \(session.userEmail ?? "?") (\(session.backend))")
        }
    }
} catch {
    say("linkd refused: \(error)")
    exit(69)
}
