import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The captions a run announces: `when` captions by operation and moment,
/// `at` captions by time then file order, taken only forward, and those
/// that speak of a dispatch left out when dispatches are not read.
struct RunCaptionsTests {
    static func scenario(_ captions: [Caption]) -> Scenario {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        b.work("a", on: q, ms: 10)
        b.work("b", on: q, ms: 10)
        var scenario = b.scenario
        scenario.captions = captions
        return scenario
    }

    static let a = OperationID(0)
    static let b = OperationID(1)

    @Test func whenCaptionsAreFoundByOperationAndMomentInFileOrder() {
        let captions = RunCaptions(
            Self.scenario([
                Caption(trigger: .when(Self.a, .starts), text: "one"),
                Caption(trigger: .when(Self.b, .starts), text: "two"),
                Caption(trigger: .when(Self.a, .finishes), text: "three"),
                Caption(trigger: .when(Self.a, .starts), text: "four"),
            ]), observesDispatches: true, pausesAtCaptions: false)
        #expect(captions.hasWhen)
        #expect(captions.captions(of: 0, becoming: .isExecuting) == [0, 3])
        #expect(captions.captions(of: 0, becoming: .isFinished) == [2])
        #expect(captions.captions(of: 1, becoming: .isExecuting) == [1])
        #expect(captions.captions(of: 1, becoming: .isReady).isEmpty)
        #expect(captions.captions(of: 0, becoming: .queuePriority).isEmpty, "no moment is a priority")
    }

    @Test func atCaptionsComeByTimeThenFileOrderAndOnlyForward() {
        var captions = RunCaptions(
            Self.scenario([
                Caption(trigger: .at(.milliseconds(200)), text: "late"),
                Caption(trigger: .at(.milliseconds(100)), text: "early"),
                Caption(trigger: .when(Self.a, .ready), text: "ready"),
                Caption(trigger: .at(.milliseconds(100)), text: "early too"),
            ]), observesDispatches: true, pausesAtCaptions: true)
        var order: [Int] = []
        var dues: [Double] = []
        while let next = captions.nextTimedCaption {
            order.append(next.caption)
            dues.append(next.due)
            captions.takeTimed()
        }
        #expect(order == [1, 3, 0])
        #expect(dues == [0.1, 0.1, 0.2])
        captions.takeTimed()
        #expect(captions.nextTimed == 3, "never past the last")
        #expect(captions.pausesAtCaptions)
    }

    @Test func captionsOfADispatchAreLeftOutWhenDispatchesAreNotRead() {
        let all = [
            Caption(trigger: .when(Self.a, .ready), text: "a is dispatched"),
            Caption(trigger: .at(.milliseconds(5)), text: "b waits ▒"),
            Caption(trigger: .at(.milliseconds(9)), text: "b runs"),
        ]
        let reading = RunCaptions(Self.scenario(all), observesDispatches: true, pausesAtCaptions: false)
        var blind = RunCaptions(Self.scenario(all), observesDispatches: false, pausesAtCaptions: false)
        #expect(reading.hasWhen && reading.nextTimedCaption?.caption == 1)
        #expect(!blind.hasWhen)
        #expect(blind.nextTimedCaption?.caption == 2)
        blind.takeTimed()
        #expect(blind.nextTimedCaption == nil)
    }

    @Test func aScenarioWithoutCaptionsHasNone() {
        let captions = RunCaptions(Self.scenario([]), observesDispatches: true, pausesAtCaptions: false)
        #expect(!captions.hasWhen && captions.nextTimedCaption == nil)
        #expect(captions.captions(of: 0, becoming: .isReady).isEmpty)
    }
}
