import Foundation
import LifecycleEngine
import ScenarioKit
import Testing

/// Timings, only when OPSCOPE_BENCH is set (use `swift test -c release`).
/// Prints; asserts nothing about time.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["OPSCOPE_BENCH"] != nil))
struct BenchmarkTests {
    static func flat(_ n: Int) -> Scenario {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for i in 0..<n { b.work("w\(i)", on: q, ms: 0) }
        return b.scenario
    }

    static func layered(width: Int, layers: Int) -> Scenario {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for layer in 0..<layers {
            for n in 0..<width {
                let after: [OperationID] =
                    layer == 0 ? [] : [OperationID((layer - 1) * width + n), OperationID((layer - 1) * width + (n + 1) % width)]
                b.work("l\(layer)n\(n)", on: q, ms: 0, after: after)
            }
        }
        return b.scenario
    }

    /// An observed run with a consumer thread draining the mailbox.
    static func observed(_ scenario: Scenario) -> (Double, Int) {
        let wake = DispatchSemaphore(value: 0)
        let begin = Date()
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 1)) { wake.signal() }
        let counted = Counter()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while true {
                wake.wait()
                let batch = run.takeEvents()
                for _ in batch { counted.add() }
                if case .end? = batch.last?.kind { break }
            }
            done.signal()
        }
        run.start()
        done.wait()
        let t = Date().timeIntervalSince(begin)
        run.stop()
        return (t, counted.value)
    }

    @Test func flat100kAndLayered10k() async {
        await Task.detached {
            for (name, scenario) in [("flat 100k", Self.flat(100_000)), ("layered 10k/20k", Self.layered(width: 1000, layers: 10))] {
                for round in 0..<3 {
                    let bare = BareEngineBaseline.run(scenario: scenario)
                    let (obs, events) = Self.observed(scenario)
                    print("BENCH \(name) round \(round): bare \(String(format: "%.3f", bare))s observed \(String(format: "%.3f", obs))s ratio \(String(format: "%.2f", obs / bare)) events \(events)")
                }
            }
        }.value
    }
}
