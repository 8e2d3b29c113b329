import Board
import CommandSupport
import Dispatch
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit

/// opscope's observed run against the bare engine, on the same graph.
@MainActor
enum EngineBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("engine (observed run against bare OperationQueue, alternated)")
        let flat = scenario(ScenarioGenerator.flat(count: 100_000))
        let (flatRatio, flatBare, flatObserved) = compare(flat, rounds: rounds)
        report.figure(
            "100,000 zero-work ops: observed / bare (median ratio)", String(format: "%.2f×", flatRatio),
            target: "≤ 1.25×", met: flatRatio <= 1.25)
        report.line(
            "    bare \(Measure.ms(flatBare)), observed \(Measure.ms(flatObserved)) (medians); "
                + String(format: "%.0f ops/s bare", 100_000 / flatBare))
        let peak = Measure.peakResidentBytes()
        report.figure(
            "peak resident memory after the 100,000-op runs", "\(peak / 1_048_576) MB", target: "< 300 MB",
            met: peak < 300 * 1_048_576)

        let layered = scenario(ScenarioGenerator.layered(layers: 100, width: 100, extra: 200))
        let (layeredRatio, layeredBare, layeredObserved) = compare(layered, rounds: rounds)
        report.figure(
            "layered 10k ops, 20k deps: observed / bare (median ratio)",
            String(format: "%.2f×", layeredRatio), target: "≤ 1.5×", met: layeredRatio <= 1.5)
        report.line("    bare \(Measure.ms(layeredBare)), observed \(Measure.ms(layeredObserved)) (medians)")
    }

    static func scenario(_ text: String) -> Scenario {
        guard let scenario = ScenarioReader.read(text, path: "bench.ops").scenario else {
            fatalError("the benchmark's generated scenario does not parse")
        }
        return scenario
    }

    /// Alternates bare and observed runs; returns the median of the
    /// per-round ratios and the median times.
    static func compare(_ scenario: Scenario, rounds: Int) -> (Double, Double, Double) {
        // One warm-up of each, not counted.
        _ = bare(scenario)
        _ = observed(scenario)
        var ratios: [Double] = []
        var bares: [Double] = []
        var observeds: [Double] = []
        for _ in 0..<rounds {
            let b = bare(scenario)
            let o = observed(scenario)
            bares.append(b)
            observeds.append(o)
            ratios.append(o / b)
        }
        return (Measure.median(ratios), Measure.median(bares), Measure.median(observeds))
    }

    /// The same graph as plain `BlockOperation`s with empty blocks on plain
    /// `OperationQueue`s: what Foundation costs without opscope.
    static func bare(_ scenario: Scenario) -> Double { BareEngineBaseline.run(scenario: scenario) }

    /// opscope's whole observed path: the run's operations and observation,
    /// its event stream, and the board reducer consuming it as it comes.
    static func observed(_ scenario: Scenario) -> Double {
        var board = BoardState(scenario: scenario)
        let seconds = Measure.seconds {
            runToTheEnd(scenario, options: RunOptions(speed: 1)) { board.apply($0) }
        }
        precondition(board.outcome == .completed, "the benchmark's run did not complete")
        return seconds
    }

    /// Runs `scenario` on the real engine, handing each event to `take` as
    /// the batches come, until the end.
    static func runToTheEnd(_ scenario: Scenario, options: RunOptions, take: (LifecycleEvent) -> Void) {
        let wake = DispatchSemaphore(value: 0)
        let run = ScenarioRun(scenario: scenario, options: options) { wake.signal() }
        run.start()
        var ended = false
        while !ended {
            wake.wait()
            let batch = run.takeEvents()
            for event in batch { take(event) }
            if case .end = batch.last?.kind { ended = true }
        }
        run.stop()
    }
}
