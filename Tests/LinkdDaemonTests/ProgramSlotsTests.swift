import LinkdTestSupport
import Testing

@testable import LinkdDaemon

/// The count of running programs against its limit.
@Suite(.ownThread) struct ProgramSlotsTests {
    @Test func aFullCountRefusesAfterItsWait() async {
        let slots = ProgramSlots(limit: 2, wait: .milliseconds(100))
        #expect(await slots.take())
        #expect(await slots.take())
        #expect(await slots.take() == false)
        #expect(slots.count == 2)
        slots.give()
        #expect(await slots.take())
    }

    /// A program's exit during the wait lets the waiting link take its slot (well before the wait ends).
    @Test func aSlotGivenBackDuringTheWaitIsTaken() async {
        let slots = ProgramSlots(limit: 1, wait: .seconds(60))
        #expect(await slots.take())
        let started = ContinuousClock.now
        async let taken = slots.take()
        while slots.waitingCount == 0 { await Task.yield() }  // the link waits: now the program exits
        slots.give()
        #expect(await taken)
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(slots.count == 1)
    }
}
