import Board
import FoundationRules
import ScenarioKit

/// One run of a `TimedModel`, each choice among things that happen at one
/// nominal moment taken from `choices` (0 past its end).
struct TimedSimulation {
    enum State { case notAdded, pending, ready, executing, stranded, finished }

    let model: TimedModel
    let dependents: [[Int]]
    let choices: [Int]
    /// The choice made at each branching point, and how many there were.
    var taken: [Int] = []
    var arities: [Int] = []
    var failed = false

    var lives: [TimedModel.Life]
    var state: [State]
    var isCancelled: [Bool]
    var unfinished: [Int]
    var running: [Int]
    var cap: [Int]
    var suspended: [Bool]
    /// Per queue, its operations in the order they were added.
    var order: [[Int]]
    var timers: [(due: Int, op: Int)] = []
    var acted: [Bool]
    var now = 0
    var forgottenUntil = 0

    init(model: TimedModel, choices: [Int]) {
        self.model = model
        self.choices = choices
        dependents = model.dependents
        let n = model.ops.count
        lives = Array(repeating: TimedModel.Life(), count: n)
        state = Array(repeating: .notAdded, count: n)
        isCancelled = Array(repeating: false, count: n)
        unfinished = model.ops.map(\.after.count)
        running = Array(repeating: 0, count: model.queues.count)
        cap = model.queues.map(\.cap)
        suspended = model.queues.map(\.suspended)
        order = Array(repeating: [], count: model.queues.count)
        acted = Array(repeating: true, count: model.actions.count)
    }

    /// One of `count` ways (count ≥ 1).
    mutating func choose(_ count: Int) -> Int {
        guard count > 1 else { return 0 }
        let depth = taken.count
        let choice = depth < choices.count ? choices[depth] : 0
        taken.append(choice)
        arities.append(count)
        return choice
    }

    mutating func run() -> TimedModel.Run? {
        for i in model.ops.indices where !model.ops[i].addedLater { add(i) }
        var nextAction = 0
        while !failed {
            let dueTimer = timers.map(\.due).min()
            let dueAction = nextAction < model.actions.count ? model.actions[nextAction].at : nil
            guard let t = [dueTimer, dueAction].compactMap({ $0 }).min() else { break }
            guard t <= TimedModel.horizon else { return nil }
            now = t
            // Whatever is due now, in every order: each timer on its own,
            // the actions in file order.
            while !failed {
                let timersNow = timers.indices.filter { timers[$0].due == t }
                let actionNow = nextAction < model.actions.count && model.actions[nextAction].at == t
                let count = timersNow.count + (actionNow ? 1 : 0)
                guard count > 0 else { break }
                let pick = choose(count)
                if pick < timersNow.count {
                    let op = timers.remove(at: timersNow[pick]).op
                    finish(op)
                } else {
                    perform(nextAction)
                    nextAction += 1
                }
            }
        }
        if failed { return nil }
        let run = TimedModel.Run(lives: lives, acted: acted, forgottenUntil: forgottenUntil)
        return run.end + (run.stalls ? 3 * TimedModel.grid : 0) <= TimedModel.horizon ? run : nil
    }

    private mutating func add(_ i: Int) {
        let q = model.ops[i].queue
        state[i] = unfinished[i] == 0 ? .ready : .pending
        lives[i].added = now
        order[q].append(i)
        if state[i] == .ready {
            lives[i].ready = now
            schedule(q, cause: .added)
        }
    }

    /// Foundation's `_schedule()`: while the queue may hand out one more
    /// (`DispatchRule.mayDispatch`), the first ready operation in its walk
    /// (`DispatchRule.precedes`; each op is filed once, in add order).
    private mutating func schedule(_ q: Int, cause: TimedModel.Cause) {
        while !failed && DispatchRule.mayDispatch(holding: running[q], limit: cap[q], suspended: suspended[q]) {
            let ready = order[q].enumerated().filter {
                state[$0.element] == .ready && lives[$0.element].dispatched == nil
            }
            let places = ready.map { DispatchRule.Place(bucket: model.ops[$0.element].bucket, filed: $0.offset) }
            guard let top = places.indices.min(by: { DispatchRule.precedes(places[$0], places[$1]) }) else { return }
            dispatch(ready[top].element, cause: cause)
        }
    }

    private mutating func dispatch(_ i: Int, cause: TimedModel.Cause) {
        let q = model.ops[i].queue
        running[q] += 1
        lives[i].dispatched = now
        lives[i].cause = cause
        if isCancelled[i] {
            if model.ops[i].ending == .neverIfCancelled {
                state[i] = .stranded
                lives[i].stranded = now
                return
            }
            // Its start() sees the flag and finishes it at once, on a
            // thread of the pool, while the queue goes on dispatching: what
            // it releases would race with that.
            if !dependents[i].isEmpty { failed = true }
            finish(i)
            return
        }
        state[i] = .executing
        lives[i].started = now
        if model.ops[i].ending != .never {
            timers.append((now + model.ops[i].length, i))
        } else {
            forgottenUntil = max(forgottenUntil, now + model.ops[i].length)
        }
    }

    /// `i` posts isFinished: its dependents are released (each one's queue
    /// may dispatch it at once, in the order of a `Set`), then its slot is
    /// freed and its queue schedules.
    private mutating func finish(_ i: Int) {
        let q = model.ops[i].queue
        state[i] = .finished
        lives[i].finished = now
        var released: [Int] = []
        for d in dependents[i] {
            unfinished[d] -= 1
            guard unfinished[d] == 0, state[d] == .pending else { continue }
            state[d] = .ready
            lives[d].ready = now
            released.append(d)
        }
        // Each release lets its queue dispatch it into a free slot, there
        // and then; where there is less room than releases, any of them
        // may be the ones that get it.
        for queue in model.queues.indices {
            var mine = released.filter { model.ops[$0].queue == queue }
            guard !mine.isEmpty, !suspended[queue] else { continue }
            var room = cap[queue] - running[queue]
            while room > 0 && !mine.isEmpty && !failed {
                let pick = mine.count > room ? choose(mine.count) : 0
                dispatch(mine.remove(at: pick), cause: .released(i))
                room = cap[queue] - running[queue]
            }
        }
        running[q] -= 1
        schedule(q, cause: .slotFreed(i))
    }

    private mutating func perform(_ index: Int) {
        let action = model.actions[index]
        switch action.act {
        case .cancel(let i):
            guard state[i] != .finished, state[i] != .stranded, !isCancelled[i] else {
                acted[index] = false
                return
            }
            isCancelled[i] = true
            lives[i].cancelled = now
            switch state[i] {
            case .executing:
                // Only the flag, for one that ignores it or never posts its
                // finish; an asynchronous operation that looks finishes now
                // (one that forgets only when cancelled before it starts, too:
                // it has started).
                guard model.ops[i].ending != .never, !model.ops[i].ignoresCancel else { return }
                timers.removeAll { $0.op == i }
                finish(i)
            case .pending, .ready:
                if state[i] == .pending { lives[i].ready = now }
                state[i] = .ready
                schedule(model.ops[i].queue, cause: .cancelled)
            case .notAdded, .stranded, .finished:
                failed = true
            }
        case .suspend(let q):
            suspended[q] = true
        case .resume(let q):
            suspended[q] = false
            schedule(q, cause: .resumed)
        case .setCap(let q, let n):
            cap[q] = n
            schedule(q, cause: .capRaised)
        case .add(let i):
            add(i)
        }
    }
}
