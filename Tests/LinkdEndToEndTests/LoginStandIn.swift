import Foundation
import Glibc
import LinkdSystem
import LinkdTestSupport

/// `linkd login --provider` on a terminal, as the daemon sees it: a connection that waits for the app's sign-in from
/// the browser (`{"op": "await_signin", "app": …, "confirm": true}`), answers the daemon's question to keep it with
/// `keep`, and records the question and the outcome line.
final class LoginStandIn: Sendable {
    private let descriptor: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let recorded = Lock<(questions: [String], outcome: String?)>(([], nil))

    /// Connects to `world`'s daemon (which must be running) and waits there for `app`'s sign-in; returns once the
    /// daemon has said that it waits.
    ///
    /// - Throws: ``HarnessError`` when the daemon does not say so.
    init(_ world: DaemonHarness, app: String, keep: Bool) throws {
        descriptor = try world.connect()
        descriptor.send(#"{"op": "await_signin", "app": "\#(app)", "confirm": true}"# + "\n")
        let answer = descriptor.readLine()
        guard answer == #"{"ok": true, "app": "\#(app)", "state": "waiting"}"# else {
            Glibc.close(descriptor)
            throw HarnessError.unexpected(what: "the answer to await_signin", got: answer ?? "nothing")
        }
        Thread.detachNewThread { [self] in
            while let line = descriptor.readLine(timeout: .seconds(60)) {
                guard line.contains(#""ask": "confirm""#) else {
                    recorded.withLock { $0.outcome = line }
                    break
                }
                recorded.withLock { $0.questions.append(line) }
                descriptor.send(#"{"confirm": \#(keep)}"# + "\n")
            }
            finished.signal()
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Ends the connection, as a `linkd login` that exits does.
    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// The questions the daemon asked, as their lines.
    var questions: [String] { recorded.withLock { $0.questions } }

    /// The outcome line, once it came (waiting up to `timeout`); `nil` when none did.
    func outcome(within timeout: Duration = .seconds(20)) -> String? {
        _ = finished.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000)))
        return recorded.withLock { $0.outcome }
    }
}
