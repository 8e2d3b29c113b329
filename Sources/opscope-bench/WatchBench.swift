import CommandSupport
import CursesBackend
import Foundation
import Interactive
import ScenarioKit
import Screen

/// `--watch`: from a save of a library file to the new run's first frame
/// on screen, in this process as the interface does it — the file written
/// (in place, or a new file renamed over it, as editors save), the kernel's
/// event, the quiet period after it (`SaveDebouncer`, 100 ms), the file
/// read and checked on the watch's thread, the old run stopped and the new
/// one started on the real engine on the main queue, its first frame drawn
/// and flushed to a headless terminal at 80×24. The smallest library file
/// and the largest (100 operations); the slower median counts.
@MainActor
enum WatchBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("watch")
        let files = ["scenarios/01-chain.ops", "scenarios/18-hundred-downloads-sync.ops"]
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            report.line("(watch figures skipped: no scenarios/ here; run the bench from the project folder)")
            return
        }
        var medians: [Double] = []
        var worst = 0.0
        for file in files {
            guard let times = saves(of: file, rounds: max(5, rounds), report: report), !times.isEmpty else { return }
            let median = Measure.median(times)
            medians.append(median)
            worst = max(worst, times.max() ?? 0)
            report.line(
                "    \((file as NSString).lastPathComponent): median \(Measure.ms(median)), slowest "
                    + "\(Measure.ms(times.max() ?? 0)) over \(times.count) saves")
        }
        let median = medians.max() ?? 0
        report.figure(
            "from a save to the new run on screen (median)", Measure.ms(median), target: "< 150 ms",
            met: median < 0.15)
        report.line("    the slowest save: \(Measure.ms(worst)) (of which 100 ms is the quiet period after the save)")
    }

    /// The session on the headless terminal, and when the last reload
    /// reached the screen.
    @MainActor
    private final class Screenful {
        let session: ScenarioSession
        let terminal: TerminalSession
        let size: Size
        var at: Double?
        var failure: String?

        init(session: ScenarioSession, terminal: TerminalSession, size: Size) {
            self.session = session
            self.terminal = terminal
            self.size = size
        }

        func draw() {
            terminal.flush(session.render(frame: session.frameInput(size: size, glyphs: .unicode, colors: true)))
        }
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// The seconds from each save of a scratch copy of `library` to the
    /// new run's first frame; nil (said in the report) when it cannot be
    /// measured here.
    private static func saves(of library: String, rounds: Int, report: BenchReport) -> [Double]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-bench-watch-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent((library as NSString).lastPathComponent).path
        guard let text = try? String(contentsOfFile: library, encoding: .utf8),
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8)),
            let scenario = ScenarioReader.read(SourceFile(path: path, text: text)).scenario
        else {
            report.line("(watch figures skipped: cannot copy \(library))")
            return nil
        }
        let size = Size(columns: 80, rows: 24)
        let terminal: TerminalSession
        do {
            terminal = try TerminalSession.headless(term: "tmux-256color", size: size)
        } catch {
            report.line("(watch figures skipped: no headless terminal: \(error))")
            return nil
        }
        defer { terminal.close() }
        let settings = SessionModel.Settings(speed: scenario.speed ?? 1, paused: false, lesson: false)
        let session = ScenarioSession(
            SessionModel(
                scenario: scenario, settings: settings, file: RecordingFile(path: path, source: text), at: now()))
        session.start(wake: {}, mainThreadWork: { _ in })
        defer { session.stop() }
        let arrival = Screenful(session: session, terminal: terminal, size: size)
        arrival.draw()
        let watch = ScenarioWatch.start(path, scenario: scenario) { save in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard case .scenario(let new, let file, let changes) = save.reload else {
                        arrival.failure = "a save did not read as a scenario"
                        return
                    }
                    arrival.session.reload(
                        new,
                        file: RecordingFile(path: file.path, source: String(decoding: file.bytes, as: UTF8.self)),
                        settings: settings, changes: changes.summary)
                    arrival.draw()
                    arrival.at = now()
                }
            }
        }
        guard let watch else {
            report.line("(watch figures skipped: cannot watch \(path))")
            return nil
        }
        defer { watch.stop() }
        var times: [Double] = []
        for round in 0..<rounds {
            arrival.at = nil
            let saved = Data((text + "\n# save \(round)\n").utf8)
            let start = now()
            if round % 2 == 0 {
                _ = FileManager.default.createFile(atPath: path, contents: saved)
            } else {
                try? saved.write(to: URL(fileURLWithPath: path + ".swp"))
                rename(path + ".swp", path)
            }
            while arrival.at == nil, arrival.failure == nil, now() - start < 3 {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.002))
            }
            if let failure = arrival.failure {
                report.line("(watch figures skipped: \(failure))")
                return nil
            }
            times.append((arrival.at ?? now()) - start)
            // The new run goes on a moment before the next save.
            let pause = now() + 0.05
            while now() < pause { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
        }
        return times
    }
}
