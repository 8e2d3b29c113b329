import Board
import EventFixtures
import RunEvents
import ScenarioKit

@testable import Screen

/// A small pipeline used by the screen tests: net (cap 2) runs fetch,
/// parse (after fetch), thumbs (qos utility); disk (serial) runs save
/// (after parse) and flush (a barrier); ui is the main queue with paint.
let pipeline: Scenario = {
    var s = makeScenario(
        queues: [
            QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "disk", cap: .limit(1)),
            QueueSpec(name: "ui", isMain: true),
        ],
        ops: [
            op("fetch", on: "net", work: 2), op("parse", on: "net", after: ["fetch"]),
            op("thumbs", on: "net", qos: .utility),
            op("save", on: "disk", after: ["parse"]), op("flush", on: "disk", body: .barrier(.zero)),
            op("paint", on: "ui", body: .blocks([.seconds(1), .seconds(1)])),
        ])
    s.title = "Pipeline"
    s.notes = ["fetch runs first; parse waits for it."]
    return s
}()

/// A board after `build` ran on a script of `scenario`.
func board(_ scenario: Scenario = pipeline, _ build: (inout Script) -> Void = { _ in }) -> BoardState {
    var script = Script(scenario)
    build(&script)
    return BoardState(scenario: scenario, replaying: script.events)
}

func frame(_ columns: Int = 80, _ rows: Int = 24, now: Double = 0, ascii: Bool = false, log: [String] = [])
    -> FrameInput
{
    FrameInput(
        now: now, size: Size(columns: columns, rows: rows), glyphs: ascii ? .ascii : .unicode,
        log: log.map { LogEntry(text: $0) })
}

/// Renders and returns the lines, trailing spaces removed (readable expectations).
func screen(_ board: BoardState, _ state: InterfaceState, _ frame: FrameInput) -> [String] {
    InterfaceRenderer.render(board: board, state: state, frame: frame).grid.lines.map(trimmed)
}

func trimmed(_ s: String) -> String {
    var s = s
    while s.last == " " { s.removeLast() }
    return s
}

/// The lines of one rectangle of a grid.
func lines(of grid: CellGrid, _ rect: Rect) -> [String] {
    (rect.minY..<rect.maxY).map { row in
        var line = ""
        for column in rect.minX..<rect.maxX where !grid[column, row].isContinuation { line += grid[column, row].text }
        return line
    }
}
