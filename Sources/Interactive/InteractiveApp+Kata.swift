import CommandSupport
import Dispatch
import Foundation
import Katas
import Screen

/// A kata checked from the picker: `opscope kata NAME` run as a child of
/// this program, in the current folder (it writes `NAME.swift` there when
/// there is none, compiles it with the kata's checks and runs them), its
/// report shown in the picker's pane line by line as it comes. The child
/// is the command itself, so the picker says exactly what the command
/// line says and keeps the result in the practice record the same way;
/// its crash or hang is its own, and the app stops it when it quits (with
/// SIGTERM, so that it stops the program it runs in turn).
extension InteractiveApp {
    /// The most a check from the picker may take, compiling included: the
    /// command's own limits are shorter (a kata's time limit, the
    /// compiler's), so this only guards against what they do not foresee.
    nonisolated static let kataCheckLimit = 600.0

    /// Opens the pane on entry `index` and checks kata `name`, unless a
    /// check of it is under way already (the pane then shows that one).
    func checkKata(_ name: String, entry index: Int, _ picker: PickerModel) {
        var model = picker
        model.state.pane = PickerPane(entry: index)
        if kataChecks[index] == nil {
            let file = Kata.named(name)?.starterFileName ?? name + ".swift"
            model.list[entry: index].report = ["$ opscope kata \(name)   (\(file) in this folder)", ""]
            let stop = StopRequest()
            kataChecks[index] = stop
            let program = Self.ownExecutable
            // The report wraps its paragraphs to the pane's text (its box and
            // margins take four columns), less the two the pane keeps for
            // the lines it wraps itself.
            let width = min(1000, max(40, session.size.columns - 6))
            let threads = kataThreads
            threads.enter()
            Thread.detachNewThread {
                defer { threads.leave() }
                let ending = Self.runKataCheck(program, name, width: width, stop: stop) { line in
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { InteractiveApp.current?.kataReported(line, entry: index) }
                    }
                }
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { InteractiveApp.current?.kataEnded(ending, entry: index) }
                }
            }
        }
        mode = .picker(model)
        scheduleRedraw()
    }

    /// This program, to run as a child of its own (`opscope kata`, a run of the user's classes).
    package nonisolated static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `program kata name` to its end, handing each line of its
    /// standard output to `line` as it comes; the lines of its standard
    /// error (a compile error's diagnostics, a usage error) and how it
    /// ended are returned.
    nonisolated static func runKataCheck(
        _ program: String, _ name: String, width: Int, stop: StopRequest, line: @escaping (String) -> Void
    ) -> [String] {
        do {
            let outcome = try ChildProcess.run(
                program, ["kata", name, "--width", String(width)], timeout: kataCheckLimit, stop: stop,
                stopGrace: 1.5, lines: line)
            var said = String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n").map(String.init)
            switch outcome.status {
            case .exited(0), .exited(1): break
            case .exited(2): if said.isEmpty { said.append("nothing was checked") }
            case .exited(let status): said.append("opscope kata ended with status \(status)")
            case .signalled(let signal): said.append("opscope kata was ended by signal \(signal)")
            case .timedOut(let seconds):
                said.append("opscope kata had not ended after \(Int(seconds))s: it was stopped")
            case .stopped: said.append("stopped")
            }
            return said
        } catch {
            return ["\(error)"]
        }
    }

    /// A line of the report, added to the entry's pane.
    func kataReported(_ line: String, entry index: Int) {
        append([line], entry: index)
    }

    /// Adds `lines` to entry `index`'s report; a pane showing its end
    /// goes on showing it.
    func append(_ lines: [String], entry index: Int) {
        let size = session.size
        let glyphs = glyphs
        updatePicker { model in
            guard index < model.list.count else { return }
            func limit(_ model: PickerModel) -> Int {
                ScenarioPicker.paneScrollLimit(list: model.list, state: model.state, size: size, glyphs: glyphs) ?? 0
            }
            let following = model.state.pane.map { $0.entry == index && $0.scroll >= limit(model) } ?? false
            model.list[entry: index].report = (model.list[entry: index].report ?? []) + lines
            if following {
                let end = limit(model)
                model.state.pane?.scroll = end
            }
        }
    }

    /// The check ended: what it said on standard error, the entry's mark
    /// and note from the practice record and the folder as they are now.
    func kataEnded(_ said: [String], entry index: Int) {
        kataChecks[index] = nil
        if !said.isEmpty { append(said, entry: index) }
        updatePicker { model in
            guard index < model.list.count else { return }
            model.refreshKatas()
        }
    }

    /// Changes the picker's model wherever it is kept (shown, or under a
    /// scenario opened from it) and redraws when it shows.
    func updatePicker(_ change: (inout PickerModel) -> Void) {
        switch mode {
        case .picker(var model):
            change(&model)
            mode = .picker(model)
            scheduleRedraw()
        case .scenario(let shown, .some(var model)):
            change(&model)
            mode = .scenario(shown, picker: model)
        case .scenario(_, nil), .none:
            break
        }
    }
}
