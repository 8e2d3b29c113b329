import Foundation
import ScenarioKit
import Synchronization

/// What the run core needs from each of its operation subclasses: a way to
/// reach Foundation's own `cancel()` past the override that announces it.
protocol EngineCancellable: AnyObject {
    func engineCancel()
}

/// The start window of a synchronous operation, without the run's lock:
/// bit 0 = `start()` entered, bit 1 = cancelled before start. Whichever of
/// `start()` and a cancel sets its bit first wins; a cancel that loses is
/// held until `main()` begins.
protocol StartWindow: AnyObject {
    /// Marks `start()` entered; true when a cancel got in first.
    func enterStart() -> Bool
    /// Claims a cancel before start; false when `start()` got in first.
    func claimCancelBeforeStart() -> Bool
}

extension StartWindow {
    /// Bit 2 of the window: the run keeps what to ask once Foundation's
    /// `start()` returns (`RunCore.finishScans`). Set and read by the
    /// start's own thread.
    static var scanKeptBit: UInt8 { 4 }
}

/// `work D`: a synchronous operation. Keeps Foundation's `start()` (wrapped
/// for the cancel window) and overrides `main()`. As small as it can be (a
/// run may hold a million): its duration and whether it stops when
/// cancelled are the model's, given when its work begins.
final class WorkOperation: Operation, EngineCancellable, StartWindow, @unchecked Sendable {
    let core: RunCore
    private let storedIndex: Int32
    let window = Atomic<UInt8>(0)

    var index: Int { Int(storedIndex) }

    init(core: RunCore, index: Int) {
        self.core = core
        storedIndex = Int32(index)
        super.init()
    }

    override func start() {
        if enterStart(), core.syncCancelledBeforeStart(index) { keptScan() }
        super.start()
        if takeKeptScan() { core.foundationFinishedKept(index) }
    }

    func enterStart() -> Bool { window.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue & 2 != 0 }
    func keptScan() { _ = window.bitwiseOr(Self.scanKeptBit, ordering: .relaxed) }
    func takeKeptScan() -> Bool {
        window.bitwiseAnd(~Self.scanKeptBit, ordering: .relaxed).oldValue & Self.scanKeptBit != 0
    }
    func claimCancelBeforeStart() -> Bool {
        window.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }

    override func main() {
        let (step, kept) = core.syncMainRuns(index, self)
        if step.ended {
            if kept { keptScan() }
            return
        }
        let work = step.work
        if work.simulates { core.simulate(until: work.end, op: self, cooperative: work.cooperative) }
        if core.syncMainEnds(index) { keptScan() }
    }

    override func cancel() { core.cancel(index, self) }
    func engineCancel() { super.cancel() }
}

/// `blocks …`: the real `BlockOperation`, one execution block per duration.
/// Foundation's `main()` runs them one after another on one thread; each
/// block reports when it starts and returns, with its thread.
final class BlocksOperation: BlockOperation, EngineCancellable, StartWindow, @unchecked Sendable {
    let core: RunCore
    let window = Atomic<UInt8>(0)
    let index: Int

    init(core: RunCore, index: Int, durations: [Double], cooperative: Bool) {
        self.core = core
        self.index = index
        super.init()
        for (n, d) in durations.enumerated() {
            addExecutionBlock { [unowned self] in
                let started = self.core.blockPhase(self.index, n, .started)
                if d > 0 {
                    self.core.simulate(until: started + d, op: self, cooperative: cooperative)
                }
                _ = self.core.blockPhase(self.index, n, .returned)
            }
        }
    }

    override func start() {
        if enterStart(), core.syncCancelledBeforeStart(index) { keptScan() }
        super.start()
        if takeKeptScan() { core.foundationFinishedKept(index) }
    }

    func enterStart() -> Bool { window.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue & 2 != 0 }
    func keptScan() { _ = window.bitwiseOr(Self.scanKeptBit, ordering: .relaxed) }
    func takeKeptScan() -> Bool {
        window.bitwiseAnd(~Self.scanKeptBit, ordering: .relaxed).oldValue & Self.scanKeptBit != 0
    }
    func claimCancelBeforeStart() -> Bool {
        window.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }

    override func main() {
        _ = core.syncMainBegins(index, self)
        super.main()
        if core.syncMainEnds(index) { keptScan() }
    }

    override func cancel() { core.cancel(index, self) }
    func engineCancel() { super.cancel() }
}

/// `async D`: overrides `start()`, `isAsynchronous`, `isExecuting` and
/// `isFinished`, and drives its own state: it tells opscope's observers
/// first, then posts `didChangeValue(forKey:)` so the engine learns of it.
final class AsyncOperation: Operation, EngineCancellable, @unchecked Sendable {
    static let initial: UInt8 = 0
    static let executing = RunModel.AsyncStep.State.executing.rawValue
    static let finished = RunModel.AsyncStep.State.finished.rawValue

    let core: RunCore
    let index: Int
    /// Stored under the run's lock while the run goes on (`store`, so
    /// transitions are ordered with the announcements); after a stop, one
    /// still executing is let go of by a compare-and-swap (`RunCore.stop`).
    /// Read by Foundation without the lock.
    let state = Atomic<UInt8>(0)

    init(core: RunCore, index: Int) {
        self.core = core
        self.index = index
        super.init()
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.load(ordering: .acquiring) == Self.executing }
    override var isFinished: Bool { state.load(ordering: .acquiring) == Self.finished }

    override func start() { core.asyncStart(index, self) }
    override func cancel() { core.cancel(index, self) }
    func engineCancel() { super.cancel() }

    /// Stores the state a step of the model gives it. Under the run's lock.
    func store(_ step: RunModel.AsyncStep) {
        core.lock.assertHeld()
        if let new = step.state { state.store(new.rawValue, ordering: .releasing) }
    }

    /// Posts to the engine what observers were already told.
    func post(executing: Bool, finished: Bool) {
        if executing { didChangeValue(forKey: "isExecuting") }
        if finished { didChangeValue(forKey: "isFinished") }
    }
}
