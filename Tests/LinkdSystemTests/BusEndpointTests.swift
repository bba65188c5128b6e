import Foundation
import Glibc
import LinkdTestSupport
import Testing

@testable import LinkdSystem

/// The bus endpoint on a real private `dbus-daemon`: one endpoint serves an object, another calls it and watches its
/// signals, every value type of ``BusValue`` going both ways.
@Suite struct BusEndpointTests {
    static let values: [BusValue] = [
        .string("a ü \u{1F600} & <x>"), .boolean(true), .uint32(4_000_000_000), .strings(["", "b", "c d"]),
        .dictionary(["k": "v", "empty": "", "ñ": "é"]),
    ]

    @Test func aCallAndASignalCarryEveryValueTypeAndTheCallerIsKnown() async throws {
        let bus = try PrivateSessionBus(activatable: false)
        let server = try BusEndpoint(address: bus.address)
        defer { server.close() }
        let calls = Lock<[BusCall]>([])
        try await server.serve(path: "/org/example/Echo", introspection: "<node/>") { call in
            calls.withLock { $0.append(call) }
            call.reply(
                call.member == "Echo"
                    ? .success(call.arguments)
                    : .failure(BusError(name: "org.example.Error.No", message: "no \(call.member)"))
            )
        }
        try await server.requestName("org.example.Echo")
        let client = try BusEndpoint(address: bus.address)
        defer { client.close() }
        let echoed = await client.call(
            destination: "org.example.Echo",
            path: "/org/example/Echo",
            interface: "org.example.Echo",
            member: "Echo",
            arguments: Self.values
        )
        #expect(echoed == .success(Self.values))
        let refused = await client.call(
            destination: "org.example.Echo",
            path: "/org/example/Echo",
            interface: "org.example.Echo",
            member: "Other",
            arguments: []
        )
        #expect(refused == .failure(BusError(name: "org.example.Error.No", message: "no Other")))
        let call = try #require(calls.withLock { $0.first })
        #expect(call.sender == (await client.uniqueName()))
        #expect(call.processID == getpid() && call.userID == getuid())
        // A signal addressed to the client alone reaches it.
        let heard = Lock<[BusSignal]>([])
        try await client.watch("type='signal',interface='org.example.Echo'") { signal in
            heard.withLock { $0.append(signal) }
        }
        let destination = try #require(await client.uniqueName())
        #expect(
            await server.emit(
                path: "/org/example/Echo",
                interface: "org.example.Echo",
                member: "Said",
                to: destination,
                arguments: Self.values
            )
        )
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let signal = try #require(heard.withLock { $0.first })
        #expect(signal.member == "Said" && signal.arguments == Self.values && signal.path == "/org/example/Echo")
    }

    @Test func aSecondOwnerOfTheNameIsRefusedAndACallAfterCloseFails() async throws {
        let bus = try PrivateSessionBus(activatable: false)
        let first = try BusEndpoint(address: bus.address)
        defer { first.close() }
        try await first.requestName("org.example.Once")
        let second = try BusEndpoint(address: bus.address)
        await #expect(throws: BusError.self) { try await second.requestName("org.example.Once") }
        second.close()
        let closed = await second.call(
            destination: "org.example.Once",
            path: "/",
            interface: "x.y",
            member: "Z",
            arguments: []
        )
        #expect(closed == .failure(BusError(name: "io.linkd.Error.Closed", message: "the bus closed")))
    }

    @Test func theAppIDOfAFlatpakInfoIsItsApplicationName() {
        let info =
            "[Instance]\nname=com.example.Wrong\n\n[Application]\nruntime=runtime/x/y/z\n  name = com.example.Notes \n"
        #expect(ProcessSandbox.appID(inKeyFile: info) == "com.example.Notes")
        #expect(ProcessSandbox.appID(inKeyFile: "[Application]\nname=\n") == nil)
        #expect(ProcessSandbox.appID(inKeyFile: "[Instance]\nname=com.example.Notes\n") == nil)
        #expect(ProcessSandbox.of(processID: getpid()) == .host)
        #expect(ProcessSandbox.throughMountTable(of: getpid()) == .host)
    }
}
