import Board
import Grading
import RunEvents
import ScenarioKit

/// The values of one frame that are not interface state: what the loop
/// knows at the moment it draws (or handles a key). Rebuilt every frame;
/// nothing here survives to the next one.
public struct FrameInput: Sendable {
    /// Scenario seconds the clock shows and the progress bars use: the
    /// run's time while it runs, the time of its end once it ended.
    public var now: Double
    /// Real (monotonic) seconds from any fixed origin, for the expiry of
    /// transient messages: they must fade while the scenario is paused and
    /// must not flash by at ×64, so they cannot use scenario time.
    public var wallClock: Double
    /// Scenario seconds per real second.
    public var speed: Double
    public var isPaused: Bool
    /// Paused by a caption in lesson mode (Space continues).
    public var pausedAtCaption: Bool
    /// Opened paused and not started yet: Space starts the run.
    public var notStarted: Bool
    /// Lesson mode: the run pauses at each caption.
    public var lesson: Bool
    /// The caption the run reached last, shown in the caption band.
    public var caption: ShownCaption?
    /// The terminal, in cells.
    public var size: Size
    public var glyphs: GlyphSet
    /// false: no colours at all (styles keep bold / dim / reverse).
    public var colors: Bool
    /// The log, oldest first, one entry per notification: in history the
    /// log pane shows the first `historyShown` of them.
    public var log: [LogEntry]
    /// The verdicts of the `expect` lines once the run ended, or while it
    /// waits after a stall (judged as if it had stalled there); nil while
    /// it runs.
    public var expectationResults: [ExpectationResult]?
    /// With the verdicts: every wait of the main thread longer than 100 ms,
    /// a line each, as `trace` ends with them (`MainThreadWaitSpan`); empty
    /// while the run goes on.
    public var mainThreadWaitLines: [String] = []
    /// The operation of `OperationQueue.main` whose work is holding the
    /// main thread as this frame is drawn (the last frame before it blocks).
    public var mainThreadBusy: OperationID?
    /// The longest time a `main` queue operation held the main thread
    /// during the run (the interface could not redraw meanwhile), when
    /// that happened.
    public var mainThreadBlocked: MainThreadBlock?
    /// The run's notifications so far, for the history keys (nil: no history).
    public var history: BoardHistory?
    /// How many of them the screen shows (the history cursor); nil: live.
    public var historyShown: Int?
    /// The run shown is a recording (`opscope replay`): nothing acts on it.
    public var isReplay: Bool
    /// The run as lanes over time, for the timeline and the thread view
    /// (`t`); nil: the board area has only the columns to show. Not an
    /// argument of `init`: set it on the value, as the loop does.
    /// The scenario is a question (predict mode): what the notes pane
    /// shows instead, and what stays hidden until the answer is in.
    public var predict: PredictFrame? = nil
    public var timeline: TimelineLanes? = nil
    /// What the frames of this scenario share (set on the value, as the
    /// loop does); nil: each frame derives everything again.
    public var memo: ScreenMemo? = nil
    /// A run before this one is kept to compare with (`d`).
    public var hasPreviousRun = false
    /// The live run has ended (finished or stuck for good), whatever
    /// moment of its history shows: the key bar then offers no live-run key.
    public var liveEnded = false
    /// The run observed each moment of dispatch; false: each `dispatched`
    /// came as its operation started, and the notes pane says so
    /// (`LifecycleEvent.unobservedDispatchesNote`).
    public var dispatchesObserved = true
    /// The lines of an overlay the session writes (`InterfaceState.Overlay`
    /// `.diff`, `.problems`), when that overlay is open.
    public var overlayText: [String]? = nil

    public init(
        now: Double = 0, wallClock: Double? = nil, speed: Double = 1, isPaused: Bool = false,
        pausedAtCaption: Bool = false, notStarted: Bool = false, lesson: Bool = false,
        caption: ShownCaption? = nil, size: Size, glyphs: GlyphSet = .unicode, colors: Bool = true,
        log: [LogEntry] = [],
        expectationResults: [ExpectationResult]? = nil, mainThreadBusy: OperationID? = nil,
        mainThreadBlocked: MainThreadBlock? = nil, history: BoardHistory? = nil, historyShown: Int? = nil,
        isReplay: Bool = false
    ) {
        self.now = now
        self.wallClock = wallClock ?? now
        self.speed = speed
        self.isPaused = isPaused
        self.pausedAtCaption = pausedAtCaption
        self.notStarted = notStarted
        self.lesson = lesson
        self.caption = caption
        self.size = size
        self.glyphs = glyphs
        self.colors = colors
        self.log = log
        self.expectationResults = expectationResults
        self.mainThreadBusy = mainThreadBusy
        self.mainThreadBlocked = mainThreadBlocked
        self.history = history
        self.historyShown = historyShown
        self.isReplay = isReplay
    }

    var ascii: Bool { glyphs.isASCII }
}

/// A caption of the scenario (`at TIME say`, `when OP … say`) that the run
/// reached.
public struct ShownCaption: Sendable, Hashable {
    public var text: String
    /// Scenario seconds when the run reached it.
    public var time: Double
    /// A key changed the run before it came (the engine took the action):
    /// its text was written for the run as the file plays it, and may no
    /// longer be true of this one.
    public var scripted: Bool

    public init(text: String, time: Double, scripted: Bool = false) {
        self.text = text
        self.time = time
        self.scripted = scripted
    }
}

/// An operation's work holding the main thread, measured in real time
/// from its start to its end on the main thread.
public struct MainThreadBlock: Sendable, Hashable {
    public var operation: OperationID
    /// Real seconds.
    public var seconds: Double

    public init(operation: OperationID, seconds: Double) {
        self.operation = operation
        self.seconds = seconds
    }
}
