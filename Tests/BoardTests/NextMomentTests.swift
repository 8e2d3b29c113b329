import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// A quiet run waits for the next timed action or the end of the work
/// executing now, whichever comes first.
@Suite struct NextMomentTests {
    static let scenario = ScenarioReader.read(
        """
        queue q
        op a work 2s
        op b async 500ms
        op c work 1s
        op d async 1s never-finishes
        at 10s add c
        at 20s cancel a
        """
    ).scenario!

    @Test func theEarliestOfTheNextActionAndTheEndsOfWorkComesNext() {
        var script = Script(Self.scenario)
        var moments = NextMoment(scenario: Self.scenario)
        #expect(moments.next()?.what == "the timed action 'add c'")
        script.add("a")
        script.at(0.1)
        script.start("a")
        script.start("d")
        for event in script.events { moments.record(event) }
        #expect(moments.next()?.time == 2.1)
        #expect(moments.next()?.what == "the end of a's work")
        // d never posts isFinished: its work ends nothing the run waits for.
        var more = Script(Self.scenario)
        more.nextSeq = script.nextSeq
        more.at(2.1)
        more.finish("a")
        more.emit(.action(.add(more.id("c")), origin: .timed(0), ignored: nil))
        for event in more.events { moments.record(event) }
        #expect(moments.next()?.time == 20)
        #expect(moments.next()?.what == "the timed action 'cancel a'")
        #expect(
            moments.waitingLine(now: 2.5, speed: 0.5)
                == "waiting for the timed action 'cancel a' at 20.000s: 35 seconds from now at speed 0.5")
    }

    @Test func aRunWithNothingToComeWaitsForNothing() {
        var moments = NextMoment(scenario: Self.scenario)
        var script = Script(Self.scenario)
        script.emit(.action(.add(script.id("c")), origin: .timed(0), ignored: nil))
        script.emit(.action(.cancel(script.id("a")), origin: .timed(1), ignored: nil))
        for event in script.events { moments.record(event) }
        #expect(moments.next() == nil)
        #expect(moments.waitingLine(now: 0, speed: 1) == nil)
    }
}
