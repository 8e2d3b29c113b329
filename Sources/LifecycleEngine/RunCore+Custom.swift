import Foundation
import ScenarioKit
import Synchronization

/// What the flag getters of the user's classes answered, kept apart from
/// the run's lock: Foundation calls the getters from inside its own calls
/// (an add, a finish, a schedule), some of which the run makes under its
/// lock, so a getter must never wait for it. The run takes the changes
/// when it next looks (`RunCore.settleCustomLocked`).
final class CustomAnswers: Sendable {
    struct Answer: Equatable {
        var executing = false
        var finished = false
        var released = false
    }

    private let answers = Mutex<(all: [Int32: Answer], changed: Set<Int32>)>(([:], []))

    func executing(_ i: Int, _ value: Bool) { update(i) { $0.executing = value } }
    func finished(_ i: Int, _ value: Bool) { update(i) { $0.finished = value } }
    func released(_ i: Int) { update(i) { $0.released = true } }

    private func update(_ i: Int, _ change: (inout Answer) -> Void) {
        answers.withLock { state in
            var answer = state.all[Int32(i), default: Answer()]
            let before = answer
            change(&answer)
            guard answer != before else { return }
            state.all[Int32(i)] = answer
            state.changed.insert(Int32(i))
        }
    }

    /// The answers that changed since the last call, by operation.
    func takeChanged() -> [(Int, Answer)] {
        answers.withLock { state in
            defer { state.changed.removeAll() }
            return state.changed.sorted().map { (Int($0), state.all[$0] ?? Answer()) }
        }
    }
}

/// The user's classes in a run (`RunOptions.ownClasses`) and what the run
/// keeps of them. The answers are kept apart from the run's lock
/// (`CustomAnswers`); the rest is guarded by it.
final class OwnClassState: @unchecked Sendable {
    let library: OwnClassLibrary
    let answers = CustomAnswers()
    /// Where their objects report: made with the first of them.
    var sink: OwnClassSink?
    /// A `cancel()` of one under way: what its queue may dispatch once
    /// Foundation's `cancel()` returned.
    var cancelScans: [Int32: RunModel.DispatchScan] = [:]
    /// The real time of the last call or answer of one of them.
    var lastActivity: UInt64 = 0

    init(_ library: OwnClassLibrary) { self.library = library }
}

extension RunCore {
    /// How long a user's class may say it finished while Foundation was
    /// never told before the run takes it for a finish never posted: far
    /// longer than between a right class's change of its flag and its
    /// `didChangeValue`.
    static let untoldGraceNanoseconds: UInt64 = 250_000_000
    /// How long the run waits, with nothing else to do, for an operation
    /// of a user's class that executes and says nothing, before it stops
    /// counting on its finish (the stall then says it cannot tell why).
    static let quietLimitNanoseconds: UInt64 = 10_000_000_000

    /// The run has operations of the user's classes.
    var hasCustom: Bool { own != nil }

    /// Operation `i` of the user's class `type`, made by the library and
    /// reporting here.
    func makeCustom(_ type: String, index i: Int) -> Operation? {
        guard let own else { return nil }
        let sink = lock.withLock { () -> OwnClassSink in
            if let sink = own.sink { return sink }
            let made = OwnClassSink(core: self)
            own.sink = made
            return made
        }
        return own.library.make(type, index: i, sink: sink)
    }

    /// What a watched subclass reported (`OwnClassEvent`), on the thread
    /// that made the call. A getter's answer is only kept (see
    /// `CustomAnswers`); a call of `start()`, `main()` or `cancel()` is
    /// announced at once, after what the getters said and what Foundation
    /// was told of any finish (so that nothing that a finish let begin is
    /// announced before it).
    func ownClassSaid(_ i: Int, _ event: OwnClassEvent, _ value: Bool) {
        guard let own else { return }
        switch event {
        case .isExecutingSaid: return own.answers.executing(i, value)
        case .isFinishedSaid: return own.answers.finished(i, value)
        case .released: return own.answers.released(i)
        case .isReadySaid: return
        default: break
        }
        let thread = here
        lock.lock()
        let first = model.log.count
        settleCustomLocked()
        let real = realTime()
        own.lastActivity = real
        switch event {
        case .startBegan:
            model.customStartBegan(i, thread: thread, real: real)
        case .mainBegan:
            model.customBegan(i, thread: thread, real: real)
        case .cancelBegan:
            own.cancelScans[Int32(i)] = model.customCancelled(i, real: real)
        case .cancelReturned:
            if let scan = own.cancelScans.removeValue(forKey: Int32(i)) { observeDispatchesLocked(scan) }
        default:
            break
        }
        settleCustomLocked()
        unlockAndNotify(observingFrom: first)
    }

    /// Under the lock: the getters' changed answers taken in, and each
    /// operation of the user's classes that Foundation's state says was
    /// told of its finish, finished (with what its queues dispatched then).
    func settleCustomLocked() {
        lock.assertHeld()
        guard let own, let reader = stateReader else { return }
        var real = realTime()
        for (i, answer) in own.answers.takeChanged() {
            own.lastActivity = real
            if answer.executing { model.customBegan(i, thread: nil, real: real) }
            model.customSaidFinished(i, answer.finished, real: real)
            if answer.released { model.custom[Int32(i), default: RunModel.CustomRecord()].released = true }
        }
        for i in model.customStarted {
            guard let op = objects.operation(i), reader.state(of: op) >= EngineState.finishing else { continue }
            real = realTime()
            own.lastActivity = real
            if let scan = model.customFoundationFinished(i, real: real) { observeDispatchesLocked(scan) }
        }
    }

    /// The watch of a run with operations of the user's classes, on a
    /// thread of its own until the run ends: every 2 ms it takes in what
    /// the classes said and what Foundation was told, and every 10 ms it
    /// asks each one that started and has not finished its `isFinished` and
    /// `isExecuting` itself, as an observer would (a class that never posts
    /// its change is never asked by Foundation); it gives up on a
    /// class that says it finished while Foundation was never told
    /// (`untoldGraceNanoseconds`), and on all that execute silently once
    /// nothing at all has happened for `quietLimitNanoseconds`, so that the
    /// run can find its stall.
    func watchCustom() {
        guard let own, let reader = stateReader else { return }
        var turn = 0
        while true {
            Thread.sleep(forTimeInterval: 0.002)
            turn += 1
            if turn % 5 == 0 {
                // Outside the lock: the getters are the class's code.
                let asked = lock.withLock { model.customStarted.compactMap { objects.operation($0) } }
                for op in asked {
                    _ = op.isFinished
                    _ = op.isExecuting
                }
            }
            lock.lock()
            guard model.lifecycle == .running, !model.log.isClosed else {
                lock.unlock()
                return
            }
            let first = model.log.count
            settleCustomLocked()
            let now = realTime()
            let ops = objects
            let untold = model.untoldFinishes(now: now, grace: Self.untoldGraceNanoseconds) { i in
                ops.operation(i).map { reader.state(of: $0) >= EngineState.finishing } ?? true
            }
            var gaveUp = !untold.isEmpty
            if now &- own.lastActivity >= Self.quietLimitNanoseconds {
                for i in model.customInFlight {
                    model.giveUp(i)
                    gaveUp = true
                }
                own.lastActivity = now
            }
            unlockAndNotify(observingFrom: first)
            if gaveUp { signalScheduler() }
        }
    }
}
