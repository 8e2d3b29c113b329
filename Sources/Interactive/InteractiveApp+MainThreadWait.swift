import Board
import CommandSupport
import CursesBackend
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// While a wait of the scenario blocks the main thread: the last frame
/// before it, the stand-in's turns meanwhile, the screen once it is back.
extension InteractiveApp {
    var frameLook: FrameLook {
        FrameLook(size: session.size, glyphs: glyphs, colors: session.colorsEnabled)
    }

    /// A turn of the stand-in while a question's wait blocks the main
    /// thread: once the run stalled in it for good (the main thread never
    /// comes back), the grade is drawn from here, and the keys that only
    /// look at the run work on it; `q` leaves (for `carryOn`'s opscope
    /// when there is one), `r` asks again in a new opscope (this one's main
    /// thread is lost).
    nonisolated static func blockedTurn(
        _ line: BlockedMainThreadLine, _ question: BlockedQuestion, _ look: FrameLook, carryOn: [String]?
    ) {
        let leave = { () -> Never in
            guard let carryOn else { line.leave() }
            line.replace(with: carryOn)
        }
        guard line.neverReturns() else { return line.tick() }
        if let grid = question.gradedFrame(look) {
            GridEscapes.draw(grid, columns: look.size.columns, colors: look.colors)
        } else if question.isGraded {
            var grid: CellGrid?
            for key in RawKeyDecoder.keys(line.readBytes()) {
                switch key {
                case .character("q"), .character("Q"): leave()
                case .character("r"), .character("R"): line.startAgain()
                default: break
                }
                switch question.handle(key, look) {
                case .quit: leave()
                case .redraw(let frame): grid = frame
                }
            }
            if let grid { GridEscapes.draw(grid, columns: look.size.columns, colors: look.colors) }
        } else {
            return line.tick()
        }
        if !question.showsMessage { line.drawLine() }
    }

    /// The last frame the main thread draws before a wait blocks it (the
    /// wait shown in the key bar), and the line that keeps the time it has
    /// been blocked while it is.
    func frameBeforeWait(_ action: Action) -> BlockedMainThreadLine? {
        guard let view = scenario else { return nil }
        eventsArrived(all: true)
        redrawNow()
        let size = session.size
        return BlockedMainThreadLine(
            row: max(0, size.rows - 2), columns: size.columns,
            call: EventFormatter.waitCall(action, in: view.model.scenario), neverReturns: view.stallProbe(),
            restart: restartArguments)
    }

    /// The command line `r` starts once the main thread is lost: this
    /// one's, or, for a scenario opened from the picker, the picker with
    /// the same entry open again (`--picked`).
    var restartArguments: [String] {
        guard case .scenario(let view, _?) = mode else { return CommandLine.arguments }
        var arguments = [CommandLine.arguments.first ?? "opscope"]
        if options.ascii { arguments.append("--ascii") }
        if options.noColor { arguments.append("--no-color") }
        if let speed = options.speed { arguments += ["--speed", String(speed)] }
        let path = view.model.file.path
        let asQuestion = view.model.settings.asQuestion
        arguments += [asQuestion ? "--picked-question" : "--picked", path]
        return arguments
    }

    /// The main thread's wait returned: the stand-in wrote over the
    /// screen, so all of it is drawn again.
    func mainThreadIsBack() {
        session.redrawAll()
        eventsArrived(all: true)
        redrawNow()
    }
}
