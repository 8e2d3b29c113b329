import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// `y`: why the run is stuck, by root cause as `trace` says it, then each
/// stuck operation with its own reason; offered on the key bar while the
/// run is stuck or waits, refused when nothing is.
@Suite struct StallOverlayTests {
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "downloads", cap: .limit(4)), QueueSpec(name: "net", cap: .limit(1))],
        ops: (1...6).map { op("dl\($0)", on: "downloads") } + [
            op("lost", on: "net", body: .async(.milliseconds(10))), op("after-lost", on: "net", after: ["lost"]),
        ])

    /// downloads suspended by a key, lost executing for good: a stall that
    /// waits for the user.
    static let stalled = board(scenario) { s in
        for i in 1...6 { s.add("dl\(i)") }
        s.add("lost")
        s.add("after-lost", ready: false)
        s.start("lost")
        s.at(0.5)
        s.emit(.action(.suspend(s.qid("downloads")), origin: .user, ignored: nil))
        s.suspended("downloads", true)
        var stuck = Dictionary(
            uniqueKeysWithValues: (0..<6).map { (OperationID($0), StuckReason.queueSuspended(QueueID(0))) })
        stuck[s.id("lost")] = .neverPostedFinish
        stuck[s.id("after-lost")] = .waitsFor(s.id("lost"), root: s.id("lost"))
        s.emit(.stall(stuck))
    }

    @Test func yOpensTheCausesThenEachStuckOperation() {
        let b = Self.stalled
        var state = InterfaceState(board: b)
        let f = frame(120, 40)
        #expect(InterfaceController.handle(.character("y"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .stall)
        let layout = InterfaceRenderer.layout(board: b, state: state, frame: f)!
        let grid = InterfaceRenderer.render(board: b, state: state, frame: f).grid
        #expect(lines(of: grid, layout.overlay)[0].hasPrefix("┌ Why the run is stuck ─"))
        #expect(
            OverlayView.stallLines(board: b, glyphs: .unicode) == [
                "Nothing can progress until you act (since 0.500s). By root cause:",
                "  6 operations held: downloads is suspended and nothing in the file resumes it — dl1, dl2, dl3 and 3 "
                    + "more",
                "    downloads suspended at 0.500s by a key press; nothing left in the file resumes it",
                "  2 operations held: lost never posted isFinished: it holds a slot of net and does nothing — lost and "
                    + "after-lost",
                "",
                "Each stuck operation (8)",
                "  dl1: its queue downloads is suspended", "  dl2: its queue downloads is suspended",
                "  dl3: its queue downloads is suspended", "  dl4: its queue downloads is suspended",
                "  dl5: its queue downloads is suspended", "  dl6: its queue downloads is suspended",
                "  lost: it never posted isFinished", "  after-lost: it waits for lost, which never finishes",
            ])
        // y again closes it, as the other overlays' keys do.
        #expect(InterfaceController.handle(.character("y"), state: &state, board: b, frame: f) == .redraw)
        #expect(state.overlay == .none)
    }

    @Test func yIsRefusedWhenNothingIsStuck() {
        let b = board(Self.scenario) { s in s.add("dl1") }
        var state = InterfaceState(board: b)
        _ = InterfaceController.handle(.character("y"), state: &state, board: b, frame: frame())
        #expect(state.overlay == .none)
        #expect(state.message?.text == "nothing is stuck here: y says why once nothing can progress")
    }

    @Test func theKeyBarOffersWhyWhileTheRunIsStuckOrWaits() {
        #expect(
            KeyBarView.text(width: 40, status: .stuck("stuck", expected: false), glyphs: .unicode)
                == " ? help  q quit  y why  r run again")
        #expect(
            KeyBarView.text(width: 40, status: .waiting("waiting", short: "waiting"), glyphs: .unicode)
                == " ? help  q quit  y why  Space pause")
    }

    @Test func theInspectorMarksAnOperationThatHoldsASlotAndDoesNothing() {
        let b = Self.stalled
        let lost = InspectorText.lines(board: b, op: b.scenario.operationID(named: "lost")!, now: 1)
        #expect(
            lost.contains(
                InspectorLine(
                    "stuck: it never posted isFinished: it holds a slot of net and does nothing", .reason)))
    }
}
