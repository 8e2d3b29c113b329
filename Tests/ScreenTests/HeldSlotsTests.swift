import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// A queue whose slots are held by operations whose `start()` returned
/// without posting `isFinished` (they never posted `isExecuting` either):
/// its line counts them as held slots, not as free ones.
@Suite("held slots on the queue line")
struct HeldSlotsTests {
    @Test func strandedOperationsCountAsHeldSlotsOnTheQueueLine() {
        let b = board { s in
            s.add("fetch")
            s.add("thumbs")
            s.dispatch("fetch")
            s.emit(.stranded(s.id("fetch")))
            s.dispatch("thumbs")
            s.emit(.stranded(s.id("thumbs")))
        }
        let net = b.queues[0]
        #expect(net.freeSlots == 0)
        let line = QueueLinesView.text(net, selected: false, nameWidth: 3, glyphs: .unicode)
        #expect(line.contains("0 running, 2 slots held, never finished · cap 2"), "\(line)")
    }

    @Test func aQueueWithNothingStrandedSaysNoHeldSlot() {
        let b = board { s in
            s.add("fetch")
            s.dispatch("fetch")
        }
        let line = QueueLinesView.text(b.queues[0], selected: false, nameWidth: 3, glyphs: .unicode)
        #expect(!line.contains("held"), "\(line)")
    }
}
