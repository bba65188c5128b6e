// An app that receives its links and sessions from linkd, and answers a reset's questions itself: run it as
// `linkd-example-app APP [--answer] [--reset EMAIL]`, with APP's apps.d file sending its links to it (`"action":
// "forward"`, or `{"signin": "forward"}` for sign-ins). It prints one line per link, session or reset result, and
// never a token. With --answer it asks for the new password (or a second factor's code) itself, reading each answer
// from a line of its standard input (where a real app shows its own "new password" view); at the end of its input it
// declines. With --reset it asks for a reset email first (a real app's "Forgot password?" button).
import Foundation
import LinkdClient

/// Prints a line at once, also into a pipe or a file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Asks the person, in place of the app's "new password" view: the answer is the next line of standard input; at its
/// end, the person cancelled.
@Sendable func askInTheAppsWindow(_ question: LinkdQuestion) async -> String? {
    let refused = question.rejection.map { " (refused: \($0))" } ?? ""
    say("asked \(question.kind.rawValue): \(question.prompt)\(refused)")
    return readLine()
}

/// The app: subscribes as APP, prints what linkd sends until linkd or the bus goes away; its exit status.
func run(_ arguments: [String]) async -> Int32 {
    guard let app = arguments.first else {
        say("usage: linkd-example-app APP [--answer] [--reset EMAIL]")
        return 64
    }
    let resetEmail = arguments.firstIndex(of: "--reset").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    do {
        let answer = arguments.contains("--answer") ? askInTheAppsWindow : nil
        let linkd = try await LinkdClient.subscribe(app: app, answer: answer)
        say("subscribed as \(linkd.app)")
        if let resetEmail {
            try await linkd.requestReset(email: resetEmail)
            say("reset email requested")
        }
        for await event in linkd.events {
            show(event)
        }
        return 0
    } catch {
        say("linkd refused: \(error)")
        return 69
    }
}

/// One line for what linkd sent, as a real app would show it.
func show(_ event: LinkdEvent) {
    switch event {
    case .link(let link):
        let fields = link.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // A real app passes the click's activation token to the window it shows (GTK: gtk_window_set_startup_id).
        let focus = link.activationToken.map { " (activation token \($0))" } ?? ""
        say("link \(link.route) \(fields.joined(separator: " "))\(focus)")
    case .session(let session):
        say("signed in as \(session.userEmail ?? "?") (\(session.backend))")
    case .resetDone(let account):
        say("password changed for \(account)")
    case .resetFailed(let reason, let message):
        say("password not changed: \(reason): \(message)")
    }
}

exit(await run(Array(CommandLine.arguments.dropFirst())))
