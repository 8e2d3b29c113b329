import Foundation
import Interactive
import ScenarioKit
import Screen

/// Predict mode: from Enter on a picker's question to the question's first
/// frame — the file read again, the session made, its run made (paused:
/// nothing handed to Foundation before the answer) and the frame drawn —
/// for every library file with a quiz; the slowest counts.
@MainActor
enum PredictBench {
    static func run(report: BenchReport, rounds: Int) {
        let paths = PickerLauncher.paths(in: PickerLauncher.libraryFolder)
        guard !paths.isEmpty else {
            report.line("(predict figures skipped: no scenarios/ here; run the bench from the project folder)")
            return
        }
        var slowest = 0.0
        for path in paths {
            var best = Double.infinity
            for _ in 0..<rounds {
                let start = ProcessInfo.processInfo.systemUptime
                guard let opening = PickerLauncher.read(path).opening, opening.scenario.quiz != nil else { break }
                let session = ScenarioSession(
                    SessionModel(
                        scenario: opening.scenario,
                        settings: .init(speed: 1, paused: true, lesson: false, asQuestion: true),
                        file: opening.file, at: start))
                session.start(wake: {}, mainThreadWork: { _ in })
                _ = session.render(
                    frame: session.frameInput(size: Size(columns: 200, rows: 50), glyphs: .unicode, colors: true))
                best = min(best, ProcessInfo.processInfo.systemUptime - start)
                session.stop()
            }
            if best.isFinite { slowest = max(slowest, best) }
        }
        report.figure(
            "a library question from the picker to the screen (slowest)",
            String(format: "%.1f ms", slowest * 1000),
            target: "< 100 ms", met: slowest < 0.1)
    }
}
