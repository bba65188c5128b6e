import Foundation
import Glibc
import LinkdClient
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

/// A reset an app starts and answers itself, through the apps' interface: the app asks for the email, the person
/// types the new password in the app's window (here: the example app's standard input), and the app hears how it
/// ended; the person who clicks sees no askpass at all.
@Suite(.ownThread) struct AppWindowResetTests {
    /// The reset world, a session bus, and a daemon on it (its answer time limit `answerTimeLimit`).
    struct World {
        let reset: ResetWorld
        let bus: PrivateSessionBus
        let daemon: SpawnedProcess
        var world: DaemonHarness { reset.world }

        init(answerTimeLimit: Int = 120) throws {
            reset = try ResetWorld()
            bus = try PrivateSessionBus(activatable: false)
            daemon = try reset.world.startDaemon(
                extra: [
                    "DBUS_SESSION_BUS_ADDRESS": bus.address, "LINKD_APP_ANSWER_TIME_LIMIT": String(answerTimeLimit),
                ],
                stderrPath: try reset.world.logFile()
            )
            #expect(reset.world.waitForEvent(.busNameTaken, within: .seconds(10)))
        }

        /// The example app, answering the questions with the lines of `answers`, with `arguments` after its app.
        func startApp(answers: String, _ arguments: [String]) throws -> (SpawnedProcess, URL) {
            let input = world.root.appendingPathComponent("answers-\(UUID().uuidString.prefix(6)).txt")
            try Data(answers.utf8).write(to: input)
            let output = world.root.appendingPathComponent("app-\(UUID().uuidString.prefix(6)).out")
            let example = LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent(
                "linkd-example-app"
            )
            let process = try SpawnedProcess(
                example.path,
                [ResetWorld.app] + arguments,
                environment: world.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 },
                stdinPath: input.path,
                stdoutPath: output.path,
                stderrPath: output.path + ".err"
            )
            return (process, output)
        }

        /// A `LinkdClient` of this test's own, subscribed as the app with its key, answering with `answer`.
        func subscribe(answer: (@Sendable (LinkdQuestion) async -> String?)? = nil) async throws -> LinkdClient {
            let key = try String(contentsOfFile: world.runtime.path + "/linkd/keys/" + ResetWorld.app, encoding: .utf8)
            return try await LinkdClient.subscribe(
                app: ResetWorld.app,
                key: key.trimmingCharacters(in: .newlines),
                busAddress: bus.address,
                answer: answer
            )
        }

        func lines(of output: URL, until last: (String) -> Bool, timeout: Duration = .seconds(20)) -> [String] {
            let read = {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
            _ = world.waitUntil(timeout, folders: [world.root.path]) { read().last.map(last) ?? false }
            return read()
        }

        /// `linkd open LINK` as a click runs it (no terminal), with an askpass that records being asked and says
        /// `askpassAnswer` (or cancels).
        func click(_ link: String, askpassAnswer: String? = nil) throws -> (LinkdProcess.Output, askpassRecord: URL) {
            let (askpass, record) = try reset.recordingAskpass(
                "clicked",
                then: askpassAnswer.map { "echo '\($0)'" } ?? "exit 1"
            )
            let opened = try world.run(["open", link], extra: ["LINKD_ASKPASS": askpass.path])
            return (opened, record)
        }
    }

    @Test func theAppAsksForTheEmailAndTheNewPasswordIsTypedInItsWindow() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let (app, output) = try world.startApp(
            answers: "new password 456\n",
            ["--answer", "--reset", "ada@example.com"]
        )
        defer { app.terminate() }
        #expect(
            world.lines(of: output) { $0 == "reset email requested" } == [
                "subscribed as com.example.Reset", "reset email requested",
            ],
            "\(world.world.daemonLog())"
        )
        let recover = try #require(world.reset.gotrue.requests.first)
        #expect(recover.target == "/auth/v1/recover?redirect_to=resetapp%3A%2F%2Freset")
        let code = try #require(world.reset.gotrue.pkceCode(for: "ada@example.com"))
        let (opened, askpass) = try world.click("resetapp://reset?code=\(code)")
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(
            world.lines(of: output) { $0.hasPrefix("password changed") }.suffix(2) == [
                "asked password: New password for ada@example.com (com.example.Reset)",
                "password changed for a***@example.com",
            ]
        )
        #expect(world.reset.gotrue.password(of: "ada@example.com") == "new password 456")
        #expect(world.reset.gotrue.requests.count { $0.method == "PUT" && $0.path == "/auth/v1/user" } == 1)
        #expect(!FileManager.default.fileExists(atPath: askpass.path), "no askpass: the app's window answered")
        #expect(!world.reset.leakSurfaces().contains("new password 456"))
    }

    @Test func aPasswordTheBackendRefusesIsAskedAgainThenResetFailedWithItsReason() throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let (app, output) = try world.startApp(answers: "short\n", ["--answer"])
        defer { app.terminate() }
        #expect(world.lines(of: output) { $0.hasPrefix("subscribed") } == ["subscribed as com.example.Reset"])
        let link = try world.reset.recoveryLink().url
        let (opened, askpass) = try world.click(link)
        #expect(opened.status == 65, "\(opened)")
        let lines = world.lines(of: output) { $0.hasPrefix("password not changed") }
        // The backend's words, as the person who clicked reads them.
        let refusal =
            "the new password was refused: Password should be at least 6 characters. (reasons: length) "
            + "[weak_password, HTTP 422]"
        #expect(opened.stderr.contains(refusal), "\(opened)")
        #expect(
            lines.dropFirst() == [
                "asked password: New password for ada@example.com (com.example.Reset)",
                "asked password: New password for ada@example.com (com.example.Reset) (refused: Password should be "
                    + "at least 6 characters.)",
                "password not changed: password_rejected: \(refusal)",
            ]
        )
        #expect(world.reset.gotrue.password(of: "ada@example.com") == "old-password")
        #expect(!FileManager.default.fileExists(atPath: askpass.path))
    }

    /// A window that takes the question and never answers: after its time, the question goes to askpass, as for an
    /// app that answers nothing, and the app still hears the result.
    @Test func aWindowThatDoesNotAnswerInTimeLeavesTheQuestionToAskpass() async throws {
        let world = try World(answerTimeLimit: 1)
        defer { world.daemon.terminate() }
        let silent = try await world.subscribe { _ in
            try? await Task.sleep(for: .seconds(600))
            return nil
        }
        defer { silent.close() }
        let (opened, askpass) = try world.click(
            try world.reset.recoveryLink().url,
            askpassAnswer: "askpass password 789"
        )
        #expect(opened.status == 0, "\(opened)\n\(world.world.daemonLog())")
        #expect(FileManager.default.fileExists(atPath: askpass.path))
        #expect(world.reset.gotrue.password(of: "ada@example.com") == "askpass password 789")
        #expect(await silent.nextEvent() == .resetDone(account: "a***@example.com"))
    }

    /// Only the app, subscribed, may ask for its reset email, and only so often; only the connection a question went
    /// to may answer it.
    @Test func aCallerThatIsNotTheAppIsRefusedAndTheAppIsRateLimited() async throws {
        let world = try World()
        defer { world.daemon.terminate() }
        let stranger = try BusEndpoint(address: world.bus.address)
        defer { stranger.close() }
        let call = { (member: String, arguments: [BusValue]) in
            await stranger.call(
                destination: "io.linkd.Linkd1",
                path: "/io/linkd/Linkd1",
                interface: "io.linkd.Linkd1",
                member: member,
                arguments: arguments
            )
        }
        let notSubscribed = await call("RequestReset", [.string(ResetWorld.app), .string("ada@example.com")])
        #expect(notSubscribed.failureName == "io.linkd.Linkd1.Error.NotSubscribed")
        #expect(
            await call("Answer", [.string("0123"), .string("a password")]).failureName
                == "io.linkd.Linkd1.Error.NoSuchQuestion"
        )
        #expect(
            await call("AnswerQuestions", [.string(ResetWorld.app), .strings(["password"])]).failureName
                == "io.linkd.Linkd1.Error.NotSubscribed"
        )
        #expect(world.reset.gotrue.requests.isEmpty)
        let app = try await world.subscribe()
        defer { app.close() }
        for _ in 1...5 { try await app.requestReset(email: "ada@example.com") }
        do throws(LinkdClientError) {
            try await app.requestReset(email: "ada@example.com")
            Issue.record("a sixth request within 10 minutes was taken")
        } catch {
            #expect(error.name == "io.linkd.Linkd1.Error.RateLimited")
        }
        #expect(world.reset.gotrue.requests.count { $0.path == "/auth/v1/recover" } == 5)
    }
}

extension Result where Failure == BusError {
    /// The D-Bus error's name, when the call failed.
    var failureName: String? {
        if case .failure(let error) = self { error.name } else { nil }
    }
}
