import Board
import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// The lesson of 05 in miniature: a serial queue that starts suspended,
/// four operations of four priorities, a note and a caption.
let lesson: Scenario = {
    var s = makeScenario(
        queues: [QueueSpec(name: "q", cap: .limit(1), startsSuspended: true)],
        ops: [
            op("low-one", on: "q", work: 0.1, priority: .low), op("normal-one", on: "q", work: 0.1),
            op("high-one", on: "q", work: 0.1, priority: .high), op("urgent", on: "q", work: 0.1, priority: .veryHigh),
        ])
    s.title = "queuePriority on a serial queue"
    s.notes = [
        "The queue starts suspended, so all four are Ready when it resumes at 100ms.",
        "Priority only reorders operations that are ready on the same queue.",
    ]
    s.captions = [
        Caption(
            trigger: .at(.milliseconds(100)), text: "all four are Ready: now the queue picks the highest queuePriority")
    ]
    return s
}()

/// The four added to the suspended queue, as a run opened paused shows them.
let lessonAtStart = board(lesson) { s in
    s.cap("q", 1)
    s.suspended("q", true)
    for (i, name) in ["low-one", "normal-one", "high-one", "urgent"].enumerated() {
        s.add(name)
        s.count("q", i + 1, old: i)
    }
}

/// Whole screens of a lesson as a learner opens it from the picker:
/// paused at t=0 in lesson mode, the notes showing (docked beside the
/// board at 120 columns, in place of the log at 80), then stopped at a
/// caption.
@Suite struct LessonScreenTests {
    static func pausedLesson(_ columns: Int, _ rows: Int, now: Double = 0) -> FrameInput {
        var f = frame(columns, rows, now: now)
        f.isPaused = true
        f.lesson = true
        return f
    }

    @Test func aPausedLessonAt120x40DocksTheNotesBesideTheBoard() {
        #expect(
            screen(lessonAtStart, InterfaceState(board: lessonAtStart), Self.pausedLesson(120, 40)) == [
                " opscope · queuePriority on a serial queue                                                 t=0.000s  ×1  lesson  PAUSED",
                "▶ q  0 running · cap 1 (serial)   4 in queue   SUSPENDED",
                "Pending 0       │Ready 4         │Executing 0     │Finished 0      │Cancelled 0    │─ Notes (n hides) ──────────────────",
                "                │low-one         │                │                │               │queuePriority on a serial queue",
                "                │work low q      │                │                │               │The queue starts suspended, so all",
                "                │queue suspended │                │                │               │  four are Ready when it resumes at",
                "                │                │                │                │               │  100ms.",
                "                │normal-one      │                │                │               │Priority only reorders operations",
                "                │work normal q   │                │                │               │  that are ready on the same queue.",
                "                │queue suspended │                │                │               │",
                "                │                │                │                │               │",
                "                │high-one        │                │                │               │",
                "                │work high q     │                │                │               │",
                "                │queue suspended │                │                │               │",
                "                │                │                │                │               │",
                "                │urgent          │                │                │               │",
                "                │work veryHigh q │                │                │               │",
                "                │queue suspended │                │                │               │",
                "                │                │                │                │               │",
                "                │                │                │                │               │",
                "                │                │                │                │               │",
                "                │                │                │                │               │",
                "                │                │                │                │               │",
                "                │                │                │                │               │",
                "─ Inspector: low-one ─────────────────────────── Log ──────────────────────────────│",
                "work 100ms on q; priority low                 │no notifications yet                │",
                "not running:                                  │                                    │",
                "  its queue q is suspended                    │                                    │",
                "  behind 3 higher-priority ready operations   │                                    │",
                "ready: isReady=true isExecuting=false         │                                    │",
                "  isFinished=false isCancelled=false          │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                "                                              │                                    │",
                " paused: Space resumes",
                " ? help  q quit  Space resume  c cancel  s suspend  + cap+  - cap-  Tab queue  n notes  m lesson  r restart  L log",
            ])
    }

    @Test func aPausedLessonAt80x24ShowsTheNotesInPlaceOfTheLog() {
        #expect(
            screen(lessonAtStart, InterfaceState(board: lessonAtStart), Self.pausedLesson(80, 24)) == [
                " opscope · queuePriority on a serial queue         t=0.000s  ×1  lesson  PAUSED",
                "▶ q  0 running · cap 1 (serial)   4 in queue   SUSPENDED",
                "Pending 0       │Ready 4 ↓1     │Executing 0    │Finished 0     │Cancelled 0",
                "                │low-one        │               │               │",
                "                │work low q     │               │               │",
                "                │queue suspended│               │               │",
                "                │normal-one     │               │               │",
                "                │work normal q  │               │               │",
                "                │queue suspended│               │               │",
                "                │high-one       │               │               │",
                "                │work high q    │               │               │",
                "                │queue suspended│               │               │",
                "                │               │               │               │",
                "                │               │               │               │",
                "─ Inspector: low-one ───────────────────────── Notes (n hides) ─────────────────",
                "work 100ms on q; priority low               │queuePriority on a serial queue",
                "not running:                                │The queue starts suspended, so",
                "  its queue q is suspended                  │  all four are Ready when it",
                "  behind 3 higher-priority ready            │  resumes at 100ms.",
                "  operations                                │Priority only reorders operations",
                "ready: isReady=true isExecuting=false       │  that are ready on the same queue.",
                "  isFinished=false isCancelled=false        │",
                " paused: Space resumes",
                " ? help  q quit  Space resume  c cancel  s suspend  + cap+  - cap-  Tab queue",
            ])
        // Running, the log is back; n brings the notes back by hand.
        var running = Self.pausedLesson(80, 24)
        running.isPaused = false
        var state = InterfaceState(board: lessonAtStart)
        #expect(screen(lessonAtStart, state, running)[14].contains("─ Log ─"))
        _ = InterfaceController.handle(.character("n"), state: &state, board: lessonAtStart, frame: running)
        #expect(screen(lessonAtStart, state, running)[14].contains("─ Notes (n hides) ─"))
        _ = InterfaceController.handle(.character("L"), state: &state, board: lessonAtStart, frame: running)
        #expect(screen(lessonAtStart, state, running)[14].contains("─ Log ─"))
    }

    @Test func aCaptionShowsInItsBandWhileTheRunIsPausedThere() {
        var f = Self.pausedLesson(80, 24, now: 0.1)
        f.pausedAtCaption = true
        f.caption = ShownCaption(text: lesson.captions[0].text, time: 0.1)
        #expect(
            screen(lessonAtStart, InterfaceState(board: lessonAtStart), f) == [
                " opscope · queuePriority on a seria…  t=0.100s  ×1  lesson  PAUSED at a caption",
                "▶ q  0 running · cap 1 (serial)   4 in queue   SUSPENDED",
                "▶ 0.100s — all four are Ready: now the queue picks the highest queuePriority",
                "  (Space continues)",
                "Pending 0       │Ready 4 ↓1     │Executing 0    │Finished 0     │Cancelled 0",
                "                │low-one        │               │               │",
                "                │work low q     │               │               │",
                "                │queue suspended│               │               │",
                "                │normal-one     │               │               │",
                "                │work normal q  │               │               │",
                "                │queue suspended│               │               │",
                "                │high-one       │               │               │",
                "                │work high q    │               │               │",
                "                │queue suspended│               │               │",
                "                │               │               │               │",
                "─ Inspector: low-one ───────────────────────── Notes (n hides) ─────────────────",
                "work 100ms on q; priority low               │queuePriority on a serial queue",
                "not running:                                │The queue starts suspended, so",
                "  its queue q is suspended                  │  all four are Ready when it",
                "  behind 3 higher-priority ready            │  resumes at 100ms.",
                "  operations                                │Priority only reorders operations",
                "ready: isReady=true isExecuting=false       │  that are ready on the same queue.",
                " paused at a caption: Space continues",
                " ? help  q quit  Space resume  c cancel  s suspend  + cap+  - cap-  Tab queue",
            ])
    }
}
