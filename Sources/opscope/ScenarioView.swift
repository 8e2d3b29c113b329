import Board
import Foundation
import LifecycleEngine
import ScenarioKit
import Screen

/// One scenario in the interactive view: its run on the real engine, the
/// board its events build, and the interface state over it.
///
/// Main-queue only. The run's engine threads never touch this object; they
/// post a wake-up, and `drain()` takes the events here.
@MainActor
final class ScenarioView {
    enum KeyResult {
        case `continue`
        case quit
    }

    let scenario: Scenario
    private let formatter: EventFormatter
    private var run: ScenarioRun
    private var wake: (@Sendable () -> Void)?
    private(set) var board: BoardState
    private var state = InterfaceState()
    private var logLines: [String] = []
    private var events: [LifecycleEvent] = []
    private var results: [ExpectationResult]?
    private var speed: Double
    private let startsPaused: Bool

    /// The longest time the main thread was seen blocked, in real seconds,
    /// and the count of main-queue finishes when last looked.
    private var mainThreadBlocked: Double?
    private var lastBeat = ProcessInfo.processInfo.systemUptime
    private var mainQueueFinishes = 0
    private var mainQueueFinishesAtLastBeat = 0

    init(scenario: Scenario, speed: Double, paused: Bool) {
        self.scenario = scenario
        self.speed = speed
        startsPaused = paused
        formatter = EventFormatter(scenario: scenario)
        board = BoardState(scenario: scenario)
        run = ScenarioRun(scenario: scenario)
    }

    /// Starts the run; `wake` is called from engine threads when events wait.
    func start(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        begin()
    }

    private func begin() {
        run = ScenarioRun(
            scenario: scenario, options: RunOptions(speed: speed, startsPaused: startsPaused), onEvents: wake)
        state.reconcile(with: board)
        run.start()
    }

    /// Ends the run and releases its threads.
    func stop() {
        run.stop()
    }

    /// Takes the events the engine recorded since last time into the board
    /// and the log. Returns whether there were any.
    @discardableResult
    func drain() -> Bool {
        let batch = run.takeEvents()
        guard !batch.isEmpty else { return false }
        for event in batch {
            board.apply(event)
            logLines.append(formatter.logLine(event))
            if case .operation(let op, .isFinished, _, .bool(true)) = event.kind,
                scenario[queue: scenario[operation: op].queue].isMain
            {
                mainQueueFinishes += 1
            }
        }
        events += batch
        if board.outcome != nil, results == nil {
            results = ExpectationChecker.evaluate(scenario, events: events)
        }
        state.reconcile(with: board)
        return true
    }

    /// Called on every frame tick (every 50 ms while something moves). A
    /// long gap since the last tick, across which a main-queue operation
    /// finished, is time the main thread spent running that operation
    /// instead of the interface.
    func heartbeat() {
        let now = ProcessInfo.processInfo.systemUptime
        let gap = now - lastBeat
        if gap > 0.25, mainQueueFinishes != mainQueueFinishesAtLastBeat {
            mainThreadBlocked = max(mainThreadBlocked ?? 0, gap)
        }
        lastBeat = now
        mainQueueFinishesAtLastBeat = mainQueueFinishes
    }

    /// Something on screen changes with time: the clock of a live run.
    var isMoving: Bool {
        board.outcome == nil && !run.isPaused
    }

    func frameInput(size: Size, glyphs: GlyphSet, colors: Bool) -> FrameInput {
        FrameInput(
            now: run.now, wallClock: ProcessInfo.processInfo.systemUptime, speed: speed,
            isPaused: run.isPaused, size: size, glyphs: glyphs, colors: colors, logLines: logLines,
            expectationResults: results, mainThreadBlocked: mainThreadBlocked)
    }

    func render(frame: FrameInput) -> CellGrid {
        InterfaceRenderer.render(board: board, state: state, frame: frame).grid
    }

    func handle(_ key: Key, frame: FrameInput) -> KeyResult {
        switch InterfaceController.handle(key, state: &state, board: board, frame: frame) {
        case .none, .redraw:
            break
        case .perform(let action):
            run.perform(action, origin: .user)
        case .togglePause:
            if run.isPaused {
                run.resume()
            } else {
                run.pause()
            }
            lastBeat = ProcessInfo.processInfo.systemUptime
        case .setSpeed(let newSpeed):
            speed = newSpeed
            run.setSpeed(newSpeed)
        case .restart:
            restart()
        case .quit:
            return .quit
        }
        return .continue
    }

    /// `r`: a new run with new operations (an operation runs only once).
    private func restart() {
        run.stop()
        board = BoardState(scenario: scenario)
        events = []
        logLines = []
        results = nil
        mainThreadBlocked = nil
        mainQueueFinishes = 0
        mainQueueFinishesAtLastBeat = 0
        state = state.restarted()
        begin()
    }
}
