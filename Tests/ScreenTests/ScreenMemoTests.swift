import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// A frame drawn with what the frames of a scenario keep (`ScreenMemo`) is
/// the frame drawn without it: at every moment of the history, in both
/// views over time, as the window and the selection move, and as the
/// timeline grows.
@Suite struct ScreenMemoTests {
    static let runs: [(String, Script)] = [
        ("ramp", TimelineRuns.ramp), ("blocks", TimelineRuns.blocks), ("async", TimelineRuns.async),
        ("cancel", TimelineRuns.cancel),
    ]

    @Test(arguments: [BoardArea.timeline, .threads, .columns])
    func framesWithTheMemoAreFramesWithout(_ area: BoardArea) {
        let memo = ScreenMemo()
        for (name, script) in Self.runs {
            let memo = name == "ramp" ? memo : ScreenMemo()
            for size in [Size(columns: 60, rows: 12), Size(columns: 100, rows: 30)] {
                for cursor in [nil] + Array(stride(from: 0, through: script.events.count, by: 3)) {
                    var scene = TimelineScene(script, area, size: size, history: cursor)
                    var kept = scene
                    kept.frame.memo = memo
                    #expect(kept.wholeScreen == scene.wholeScreen, "\(name) at \(size), cursor \(cursor ?? -1)")
                    // Moving the window and the selection: both again.
                    for key in [Key.character("z"), .character(","), .down, .character("x")] {
                        scene.press(key)
                        kept.press(key)
                        #expect(kept.wholeScreen == scene.wholeScreen, "\(name) after \(key), cursor \(cursor ?? -1)")
                    }
                }
            }
        }
    }

    /// The memo of one run, asked about a timeline that recorded more
    /// since, draws the timeline as it is now.
    @Test func aGrowingTimelineIsDrawnAsItIsNow() {
        let memo = ScreenMemo()
        let script = TimelineRuns.ramp
        for count in stride(from: 1, through: script.events.count, by: 2) {
            var partial = Script(script.scenario)
            for event in script.events.prefix(count) { partial.emit(event.kind, thread: event.thread) }
            var scene = TimelineScene(partial, .threads, size: Size(columns: 80, rows: 14))
            let without = scene.wholeScreen
            scene.frame.memo = memo
            #expect(scene.wholeScreen == without, "after \(count) events")
        }
    }
}
