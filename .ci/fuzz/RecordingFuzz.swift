// A libFuzzer target for the whole path a recording takes, built by
// `.ci/fuzz/run` (not by SwiftPM): any bytes are read as a recording
// (`opscope replay`, `opscope trace RUN.jsonl`), and what opens goes where
// a replay and a trace take it. What they promise is checked, trapping (so
// libFuzzer keeps the input) when a promise is broken:
// - nothing traps, whatever the bytes: the reading, the board, the
//   history and its seeks, the lanes, the text timeline, the chrome export,
//   the text trace, the expectations, and the interface's screen at 1×1,
//   80×24 or 200×60 in one of its areas, live and back in the history,
//   under the keys that move through time and act (which of each, the
//   input's bytes choose);
// - the history's board after n events is the reducer's after the first n;
// - every line of the text timeline fits its width;
// - the chrome export is JSON;
// - the recording written again (opscope's form) reads back whole, to the
//   same events at the millisecond, and written once more it is the same
//   bytes: opscope's form is a fixed point;
// - nothing a recording holds reaches a terminal raw: no control character
//   (`TerminalText.isControl`: C0 but newline, DEL, C1, the bidi controls)
//   in the chrome export, opscope's form of the recording, the diff of the
//   run with itself, or any cell of the interface's screen;
// - read a line at a time (`RecordingStream`, a board reading the child
//   that runs the user's classes), the bytes give the same events and the
//   same first problem as read whole;
// - each line read as a live child's report (`LiveReport`), or as a
//   board's command to it (`LiveCommand`, against the recording's
//   scenario), is nothing or reads back as itself from the line it
//   writes.
import Board
import Foundation
import Grading
import RunEvents
import RunFormats
import ScenarioKit
import Screen
import TextKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = Result { () throws(RecordingProblem) in try RecordingDecoder.decode(bytes) }
    checkStream(bytes, against: whole)
    guard let recording = try? whole.get() else { return 0 }
    let scenario = recording.scenario
    let events = recording.events

    // The board, and the history (a checkpoint every 4 events, so that a
    // short input crosses many) against the reducer.
    var board = BoardState(scenario: scenario)
    var history = BoardHistory(scenario: scenario, interval: 4)
    var prefixBoards: [Int: BoardState] = [0: board]
    let probes = Set([0, 1, 3, 4, 5, events.count / 2, events.count - 1, events.count])
    for (n, event) in events.enumerated() {
        board.apply(event)
        history.append(event, boardAfter: board)
        if probes.contains(n + 1) { prefixBoards[n + 1] = board }
    }
    for (n, expected) in prefixBoards where history.board(after: n) != expected {
        fatalError("the history's board after \(n) events is not the reducer's")
    }

    // The formats: text, jsonl, chrome, the text timeline; the expectations.
    let formatter = EventFormatter(scenario: scenario)
    var text = formatter.textHeader
    for event in events { text += formatter.text(event) + "\n" + formatter.logLine(event) }
    _ = ExpectationChecker.evaluate(scenario, events: events)
    let lanes = TimelineLanes(scenario: scenario, events: events)
    for width in [40, 41, 100] {
        for line in TimelineText.render(lanes, width: width).split(separator: "\n")
        where displayWidth(String(line)) > width {
            fatalError("a line of the text timeline is wider than \(width): \(line)")
        }
    }
    var chrome: [UInt8] = []
    var encoder = ChromeTraceEncoder(scenario: scenario)
    encoder.appendHeader(to: &chrome)
    for event in events { encoder.append(event, to: &chrome) }
    encoder.appendFooter(to: &chrome)
    if (try? JSONSerialization.jsonObject(with: Data(chrome))) == nil {
        fatalError("the chrome export is not JSON:\n\(String(decoding: chrome, as: UTF8.self))")
    }
    checkNoControls(String(decoding: chrome, as: UTF8.self), "the chrome export")
    checkCanonicalForm(recording)
    let steps = RunSteps(scenario: scenario, events: events)
    let label = RunLabel(path: recording.header.path, source: .recording(scenario: recording.header.path))
    checkNoControls(RunDiffText.render(RunDiff(steps, steps), a: label, b: label), "the diff")

    // The interface, as a replay draws it. A frame costs milliseconds, so
    // each input draws a few, chosen by its own bytes (the same input, the
    // same frames): a size of three, an area, a place in the history, and
    // a handful of the keys that move through time and act.
    var choice = Choice(bytes)
    let log = events.map { LogEntry($0, formatter: formatter) }
    let results = board.outcome != nil ? ExpectationChecker.evaluate(scenario, events: events) : nil
    let size = choice.pick([Size(columns: 1, rows: 1), Size(columns: 80, rows: 24), Size(columns: 200, rows: 60)])
    var state = InterfaceState(board: board)
    state.boardArea = choice.pick(BoardArea.allCases)
    state.inspectorExpanded = choice.pick([false, true])
    let scene = Scene(board: board, history: history, lanes: lanes, log: log, results: results, size: size)
    scene.draw(state)
    state.historyCursor = choice.pick([0, events.count / 2, max(0, events.count - 1)])
    scene.draw(state)
    let keys: [[Key]] = [
        [.home], [.end], [.character("[")], [.character("]")], [.character("{")], [.character("}")],
        [.character("t")], [.character("z")], [.character("Z")], [.character(",")], [.character(".")],
        [.character("x")], [.up], [.down], [.left], [.right], [.character("+")], [.character("-")],
        [.character("0")], [.character("c")], [.character("s")], [.character("p")], [.character("f")],
        [.character("L")], [.character("n")], [.character("?")], [.character("w")], [.pageDown],
        [.character("g")] + "9223372036.854".map(Key.character) + [.enter],
        [.character("g")] + "0.5s".map(Key.character) + [.enter], [.character("g"), .enter],
    ]
    for _ in 0..<6 {
        for key in choice.pick(keys) {
            let frame = scene.frame(state)
            _ = InterfaceController.handle(key, state: &state, board: scene.shown(state), frame: frame)
        }
        scene.draw(state)
    }
    return 0
}

/// What a replay's screen is drawn from, but for the interface state.
struct Scene {
    let board: BoardState
    let history: BoardHistory
    let lanes: TimelineLanes
    let log: [LogEntry]
    let results: [ExpectationResult]?
    let size: Size

    /// The board at the history's cursor, or the whole recording's.
    func shown(_ state: InterfaceState) -> BoardState {
        state.historyCursor.map { history.board(after: $0) } ?? board
    }

    /// A replay's frame: the history, its cursor and the clock at its moment.
    func frame(_ state: InterfaceState) -> FrameInput {
        let now = state.historyCursor.map { history.time(after: $0) } ?? board.lastEventTime
        var frame = FrameInput(
            now: now, wallClock: 0, size: size, log: log,
            expectationResults: state.historyCursor == nil ? results : nil, history: history,
            historyShown: state.historyCursor, isReplay: true)
        frame.timeline = lanes
        return frame
    }

    func draw(_ state: InterfaceState) {
        let grid = InterfaceRenderer.render(board: shown(state), state: state, frame: frame(state)).grid
        if grid.size != size { fatalError("a frame of \(size) drew \(grid.size)") }
        for cell in grid.cells where cell.text.unicodeScalars.contains(where: TerminalText.isControl) {
            fatalError("a cell of the screen holds a control character: \(Array(cell.text.unicodeScalars))")
        }
    }
}

/// Choices made from an input's own bytes (FNV-1a), so that a crash
/// replays from its file.
struct Choice {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    init(_ bytes: [UInt8]) {
        for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    mutating func pick<T>(_ options: [T]) -> T {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return options[Int((state >> 33) % UInt64(options.count))]
    }
}

/// `text` holds no control character a terminal would act on but newlines.
func checkNoControls(_ text: String, _ what: String) {
    if let bad = text.unicodeScalars.first(where: { TerminalText.isControl($0) && $0 != "\n" }) {
        fatalError("\(what) holds the control character U+\(String(bad.value, radix: 16, uppercase: true))")
    }
}

/// The recording in opscope's form reads back whole, to the same events at
/// the millisecond, and is a fixed point.
func checkCanonicalForm(_ recording: Recording) {
    let canonical = JSONLineEncoder.recording(recording.header, of: recording.scenario, events: recording.events)
    let again: Recording
    do {
        again = try RecordingDecoder.decode(canonical)
    } catch {
        fatalError("opscope's form of a recording does not open: \(error)")
    }
    if let problem = again.problem {
        fatalError(
            "opscope's form of a recording has a problem: \(problem)\n\(String(decoding: canonical, as: UTF8.self))")
    }
    let expected = recording.events.map { event in
        var copy = event
        copy.time = event.time > 0 ? (event.time * 1000).rounded() / 1000 : 0
        return copy
    }
    if again.events != expected || again.header.source != recording.header.source {
        fatalError("opscope's form of a recording reads back as another run")
    }
    if JSONLineEncoder.recording(again.header, of: again.scenario, events: again.events) != canonical {
        fatalError("opscope's form of a recording is not a fixed point")
    }
    checkNoControls(String(decoding: canonical, as: UTF8.self), "opscope's form of the recording")
}

/// The line-at-a-time reading of `bytes` against the whole one; the live
/// lines of each line.
func checkStream(_ bytes: [UInt8], against whole: Result<Recording, RecordingProblem>) {
    // No line at all: the whole reading says the file is empty.
    guard !bytes.isEmpty else { return }
    var stream = RecordingStream()
    var events: [LifecycleEvent] = []
    var problem: RecordingProblem?
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // A last newline ends the last line; it starts none.
    if lines.last?.isEmpty == true { lines.removeLast() }
    for line in lines where problem == nil {
        do {
            if let event = try stream.read(Array(line)) { events.append(event) }
        } catch {
            problem = error
        }
        let text = String(decoding: line, as: UTF8.self)
        if let report = LiveReport(line: text[...]), LiveReport(line: report.line[...]) != report {
            fatalError("a live report does not read back as itself")
        }
        if let scenario = stream.scenario, let command = LiveCommand(line: text[...], scenario: scenario),
            LiveCommand(line: command.line[...], scenario: scenario) != command
        {
            fatalError("a live command does not read back as itself")
        }
    }
    switch whole {
    case .success(let recording):
        // The whole reading keeps the events before its problem; so does
        // the stream, which stops at the same line.
        guard events == recording.events, problem?.line == recording.problem?.line else {
            fatalError("a recording read a line at a time is not the recording read whole")
        }
    case .failure(let first):
        guard events.isEmpty, problem?.line == first.line else {
            fatalError("a recording that does not open opens a line at a time")
        }
    }
}
