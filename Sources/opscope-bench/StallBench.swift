import CommandSupport
import Foundation
import RunEvents
import ScenarioKit

/// A stall of 100,000 stuck operations grouped by root cause
/// (`StallCause.group`) and told in words, as `trace` does at its end
/// (issue 19's target: linear, under 100 ms): half of them behind a queue
/// suspended by a completion block whose only resume waits behind it (a
/// deadlock), a chain of waits behind an operation that never posts
/// isFinished, ready operations behind the slot it holds, and a few the
/// run cannot tell. Timed at half the size too: linear means about twice
/// the time for twice the operations.
@MainActor
enum StallBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("stall (root causes of a stall of 100,000 stuck operations)")
        let half = stall(count: 50_000)
        let whole = stall(count: 100_000)
        var halfTimes: [Double] = []
        var times: [Double] = []
        var lines: [String] = []
        for _ in 0..<max(rounds, 5) {
            halfTimes.append(Measure.seconds { _ = tell(half) })
            times.append(Measure.seconds { lines = tell(whole) })
        }
        let median = Measure.median(times)
        let ratio = median / max(Measure.median(halfTimes), 1e-9)
        // The deadlock and its story, lost's chain, the ten it cannot tell.
        let grouped = lines.count == 4 && lines[0].contains("by a deadlock") && lines[1].contains("sheet waits for op1")
        report.figure(
            "group and tell 100,000 stuck operations (median)", Measure.ms(median), target: "< 100 ms",
            met: median < 0.1 && grouped)
        // Linear: about 2× for twice the operations (a quadratic walk would be 4×).
        report.figure(
            "the same at 100,000 / at 50,000 (median ratio)", String(format: "%.2f×", ratio),
            target: "≤ 3× (linear)", met: ratio <= 3)
        report.line("    " + (lines.first ?? "(no cause)"))
    }

    /// The stall's causes and their lines.
    static func tell(_ stall: (Scenario, [OperationID: StuckReason], StallContext)) -> [String] {
        let causes = StallCause.group(stall.1, in: stall.0, context: stall.2)
        return StallCause.reportLines(causes, in: stall.0)
    }

    /// `count` stuck operations: half on `photos`, suspended by p0's
    /// completion block and resumed only by the completion block of
    /// `sheet`, which waits for an operation on photos; a chain of waits
    /// behind `lost`, which never posts isFinished; ready operations behind
    /// the one slot of `net`, which `lost` holds; ten the run cannot tell.
    static func stall(count: Int) -> (Scenario, [OperationID: StuckReason], StallContext) {
        let photos = QueueID(0)
        let net = QueueID(1)
        let half = count / 2
        let sheet = half + 1
        let lost = half + 2
        let chainEnd = lost + (count - lost) / 2
        var operations: [OperationSpec] = []
        var stuck: [OperationID: StuckReason] = [:]
        operations.reserveCapacity(count + 1)
        stuck.reserveCapacity(count)
        // p0 finished: its completion block suspended photos.
        operations.append(
            OperationSpec(name: "p0", queue: photos, body: .async(.milliseconds(1)), completion: [.suspend(photos)]))
        for i in 1...count {
            let id = OperationID(i)
            var spec = OperationSpec(name: "op\(i)", queue: net, body: .work(.milliseconds(1)))
            switch i {
            case ...half:
                spec.queue = photos
                stuck[id] = .queueSuspended(photos)
            case sheet:
                spec.name = "sheet"
                spec.dependencies = [OperationID(1)]
                spec.completion = [.resume(photos)]
                stuck[id] = .waitsFor(OperationID(1), root: OperationID(1))
            case lost:
                spec.name = "lost"
                spec.body = .async(.milliseconds(1))
                spec.neverFinishes = true
                stuck[id] = .neverPostedFinish
            case ..<chainEnd:
                spec.dependencies = [OperationID(i - 1)]
                stuck[id] = .waitsFor(OperationID(i - 1), root: OperationID(lost))
            case ..<(count - 9):
                stuck[id] = .waitsFor(OperationID(lost), root: OperationID(lost))
            default:
                stuck[id] = .unknown
            }
            operations.append(spec)
        }
        let scenario = Scenario(
            queues: [QueueSpec(name: "photos", cap: .limit(4)), QueueSpec(name: "net", cap: .limit(1))],
            operations: operations)
        var context = StallContext(scenario: scenario)
        context.record(
            LifecycleEvent(
                seq: 1, time: 4.022, kind: .action(.suspend(photos), origin: .completion(OperationID(0)), ignored: nil))
        )
        return (scenario, stuck, context)
    }
}
