// The facts opscope's observed dispatch rests on, checked with plain
// Foundation (no opscope code) and a read of the operation's own state
// (`EngineState`, the run's own reader: `run` compiles
// Sources/LifecycleEngine/EngineState.swift with this file). One fact per argument, one line of outcome each; `run`
// runs each of them many times and prints the outcomes that occurred.
import Foundation

final class W: Operation, @unchecked Sendable {
    let d: Double
    let name2: String
    var afterStart: (() -> Void)?
    init(_ n: String, _ d: Double) {
        self.d = d
        self.name2 = n
    }
    override func main() { Thread.sleep(forTimeInterval: d) }
    override func start() {
        super.start()
        afterStart?()
    }
}
/// An asynchronous operation whose finish is told (`tells` times) or not:
/// the kata's checks rest on what Foundation then does (`untold`,
/// `toldtwice`, `completionkept`).
final class Async: Operation, @unchecked Sendable {
    let tells: Int
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    init(tells: Int) { self.tells = tells }
    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }
    override func start() {
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { [self] in
            willChangeValue(forKey: "isExecuting")
            lock.withLock { (executing, finished) = (false, true) }
            didChangeValue(forKey: "isExecuting")
            for _ in 0..<tells {
                willChangeValue(forKey: "isFinished")
                didChangeValue(forKey: "isFinished")
            }
        }
    }
}

/// Counts from any thread.
final class Count: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}

guard let r = EngineState.shared else { fatalError("EngineState: this Foundation's operation state cannot be read") }
func st(_ op: Operation) -> UInt8 { r.state(of: op) }
/// Foundation's states, in the declaration's case order (`EngineState.state(of:)`).
let names = ["initialized", "enqueuing", "enqueued", "dispatching", "starting", "executing", "finishing", "finished"]
let DISPATCHING: UInt8 = 3, EXECUTING: UInt8 = 5, ENQUEUED: UInt8 = 2

let which = CommandLine.arguments[1]
switch which {
case "ramp":  // cap 4, 8 sync ops of 1.5s: states at 100 ms
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 4
    let ops = (0..<8).map { W("o\($0)", 1.5) }
    for o in ops { q.addOperation(o) }
    let afterAdd = ops.map(st)
    Thread.sleep(forTimeInterval: 0.1)
    let s = ops.map(st)
    print(
        "afterAdd dispatched+=\(afterAdd.filter { $0 >= DISPATCHING }.count) at100ms dispatching=\(s.filter { $0 == DISPATCHING || $0 == 4 }.count) executing=\(s.filter { $0 == EXECUTING }.count) enqueued=\(s.filter { $0 == ENQUEUED }.count)"
    )
    q.cancelAllOperations()
    q.waitUntilAllOperationsAreFinished()
case "workers":  // cap 4, 4 sync ops of 1.2s, nothing else running: how many execute at 500 ms (threads at once)
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 4
    let ops = (0..<4).map { W("o\($0)", 1.2) }
    for o in ops { q.addOperation(o) }
    Thread.sleep(forTimeInterval: 0.5)
    print(
        "on \(ProcessInfo.processInfo.activeProcessorCount) CPUs, executing at 500ms: \(ops.map(st).filter { $0 == EXECUTING }.count)"
    )
    q.waitUntilAllOperationsAreFinished()
case "suspend":  // cap 4, sync ops; suspend at 100ms: do the dispatched ones start while suspended?
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 4
    let ops = (0..<8).map { W("o\($0)", 0.6) }
    for o in ops { q.addOperation(o) }
    Thread.sleep(forTimeInterval: 0.1)
    q.isSuspended = true
    let s = ops.map(st)
    let waiting = ops.indices.filter { s[$0] == DISPATCHING }
    Thread.sleep(forTimeInterval: 3)
    let s2 = ops.map(st)
    print(
        "suspended with \(waiting.count) dispatched waiting; 3s later those started: \(waiting.filter { s2[$0] >= EXECUTING }.count); enqueued ones started: \(ops.indices.filter { s[$0] == ENQUEUED && s2[$0] >= EXECUTING }.count)"
    )
    q.isSuspended = false
    q.waitUntilAllOperationsAreFinished()
case "lower":  // cap 4 → 1 at 100ms: max executing after lowering
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 4
    let ops = (0..<8).map { W("o\($0)", 0.8) }
    for o in ops { q.addOperation(o) }
    Thread.sleep(forTimeInterval: 0.1)
    q.maxConcurrentOperationCount = 1
    let s = ops.map(st)
    var maxExec = 0
    let end = Date(timeIntervalSinceNow: 4)
    var startedAbove = 0
    var seen = Set<Int>()
    while Date() < end {
        let now = ops.map(st)
        maxExec = max(maxExec, now.filter { $0 == EXECUTING }.count)
        for i in ops.indices where s[i] == DISPATCHING && now[i] >= EXECUTING && !seen.contains(i) {
            seen.insert(i)
            startedAbove += 1
        }
        Thread.sleep(forTimeInterval: 0.0005)
    }
    print(
        "at lowering: dispatched-waiting \(s.filter { $0 == DISPATCHING }.count) executing \(s.filter { $0 == EXECUTING }.count); later started of those \(startedAbove); max executing seen after lowering \(maxExec)"
    )
    q.waitUntilAllOperationsAreFinished()
case "scan":  // after each triggering call returns, its dispatches are visible
    var bad = 0
    var checks = 0
    let lock = NSLock()
    for _ in 0..<50 {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 2
        q.isSuspended = true
        let ops = (0..<8).map { W("o\($0)", Double.random(in: 0...0.003)) }
        var returned = 0
        for o in ops {
            o.afterStart = {
                lock.lock()
                returned += 1
                let f = returned
                lock.unlock()
                let d = ops.map(st).filter { $0 >= DISPATCHING }.count
                lock.lock()
                checks += 1
                if d < min(f + 2, ops.count) { bad += 1 }
                lock.unlock()
            }
        }
        for o in ops {
            q.addOperation(o)
            checks += 1
            if st(o) != ENQUEUED { bad += 1 }
        }
        q.isSuspended = false
        let s = ops.map(st)
        checks += 1
        if s.filter({ $0 >= DISPATCHING }).count != 2 || s[0] < DISPATCHING || s[1] < DISPATCHING { bad += 1 }
        q.waitUntilAllOperationsAreFinished()
        Thread.sleep(forTimeInterval: 0.01)
    }
    print("scan: \(bad) of \(checks) checks failed")
case "serial":  // serial queue: a later op is never dispatched while an earlier one has not reached finishing
    // (read the later one first: states only move forward, so this order gives no false alarm)
    var bad = 0
    var checks = 0
    for _ in 0..<20 {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 1
        let ops = (0..<5).map { W("o\($0)", 0.01) }
        for o in ops { q.addOperation(o) }
        let end = Date(timeIntervalSinceNow: 0.1)
        while Date() < end {
            for k in 0..<(ops.count - 1) {
                let later = st(ops[k + 1])
                let earlier = st(ops[k])
                checks += 1
                if later >= DISPATCHING && earlier < 6 { bad += 1 }
            }
        }
        q.waitUntilAllOperationsAreFinished()
    }
    print("serial: \(bad) of \(checks) reads saw a later op dispatched before the earlier one finished")
case "prioback":  // serial, suspended: a, b, c normal; a → low → normal; resume: dispatch order
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 1
    q.isSuspended = true
    let ops = ["a", "b", "c"].map { W($0, 0.01) }
    nonisolated(unsafe) var order: [String] = []
    let lock = NSLock()
    for o in ops {
        o.afterStart = nil
        q.addOperation(o)
    }
    ops[0].queuePriority = .low
    ops[0].queuePriority = .normal
    q.isSuspended = false
    // watch the dispatch order by polling states quickly
    var seen = Set<Int>()
    let end = Date(timeIntervalSinceNow: 0.5)
    while Date() < end && seen.count < 3 {
        for (i, o) in ops.enumerated() where !seen.contains(i) && st(o) >= DISPATCHING {
            seen.insert(i)
            lock.lock()
            order.append(o.name2)
            lock.unlock()
        }
    }
    q.waitUntilAllOperationsAreFinished()
    print("prioback dispatch order: \(order.joined(separator: ","))")
case "mainq":  // main queue: a later op is never dispatched before the earlier one reached finishing
    let ops = (0..<4).map { W("m\($0)", 0.02) }
    for o in ops { OperationQueue.main.addOperation(o) }
    let t = Thread {
        var bad = 0
        var checks = 0
        let end = Date(timeIntervalSinceNow: 0.3)
        while Date() < end {
            for k in 0..<(ops.count - 1) {
                let later = st(ops[k + 1])
                let earlier = st(ops[k])
                checks += 1
                if later >= DISPATCHING && earlier < 6 { bad += 1 }
            }
        }
        print("mainq: \(bad) of \(checks) reads saw a later op dispatched before the earlier one finished")
        exit(0)
    }
    t.start()
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 1))
case "capraise":  // cap 1 → 3 while 4 wait: after the setter returns, 3 are dispatched
    var bad = 0
    for _ in 0..<30 {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 1
        let ops = (0..<5).map { W("o\($0)", 0.05) }
        for o in ops { q.addOperation(o) }
        q.maxConcurrentOperationCount = 3
        if ops.map(st).filter({ $0 >= DISPATCHING }).count < 3 { bad += 1 }
        q.waitUntilAllOperationsAreFinished()
    }
    print("capraise: \(bad) of 30 had fewer than 3 dispatched after the setter returned")
case "cancelwaiting":  // a pending op (dep unfinished) cancelled: after cancel() returns it is dispatched (free slot)
    var bad = 0
    for _ in 0..<30 {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 2
        let blocker = W("x", 0.05)
        let d = W("d", 0.01)
        d.addDependency(blocker)
        let other = OperationQueue()
        other.addOperation(blocker)
        q.addOperation(d)
        d.cancel()
        if st(d) < DISPATCHING { bad += 1 }
        q.waitUntilAllOperationsAreFinished()
        other.waitUntilAllOperationsAreFinished()
    }
    print("cancelwaiting: \(bad) of 30 not dispatched after cancel() returned")
case "fanout":  // x releases d1..d5 on a serial queue: dispatch order equals start order; which first varies
    var firsts: [String: Int] = [:]
    for _ in 0..<30 {
        let q = OperationQueue()
        q.maxConcurrentOperationCount = 1
        let x = W("x", 0.005)
        let ds = (1...5).map { W("d\($0)", 0.001) }
        var starts: [String] = []
        let lock = NSLock()
        for d in ds { d.addDependency(x) }
        for d in ds { q.addOperation(d) }
        let other = OperationQueue()
        other.addOperation(x)
        var seen = Set<Int>()
        let end = Date(timeIntervalSinceNow: 0.5)
        while Date() < end && seen.count < 5 {
            for (i, d) in ds.enumerated() where !seen.contains(i) && st(d) >= DISPATCHING {
                seen.insert(i)
                lock.lock()
                starts.append(d.name2)
                lock.unlock()
            }
        }
        firsts[starts.first ?? "?", default: 0] += 1
        q.waitUntilAllOperationsAreFinished()
    }
    print("fanout first dispatched over 30 runs: \(firsts.sorted { $0.key < $1.key })")
case "barrier":  // an op added while a barrier waits depends on it; one added once the barrier was dispatched does not, and waits behind it on the dispatch queue
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 2
    let a = W("a", 0.1)
    q.addOperation(a)
    let lock = NSLock()
    nonisolated(unsafe) var barrierRunning = false
    nonisolated(unsafe) var barrierDone = false
    q.addBarrierBlock {
        lock.lock()
        barrierRunning = true
        lock.unlock()
        Thread.sleep(forTimeInterval: 0.2)
        lock.lock()
        barrierDone = true
        lock.unlock()
    }
    let early = W("early", 0.01)
    q.addOperation(early)  // the barrier still waits for a
    let earlyState = st(early)
    while !(lock.withLock { barrierRunning }) { Thread.sleep(forTimeInterval: 0.001) }
    let late = W("late", 0.01)
    var lateStartedBeforeBarrierEnd = false
    q.addOperation(late)  // the barrier is running
    let lateState = st(late)
    let earlyWhileBarrier = st(early)
    while st(late) < EXECUTING && st(late) != 7 { Thread.sleep(forTimeInterval: 0.0005) }
    lateStartedBeforeBarrierEnd = !(lock.withLock { barrierDone })
    q.waitUntilAllOperationsAreFinished()
    print(
        "barrier: added while it waits \(names[Int(earlyState)]), still \(names[Int(earlyWhileBarrier)]) while it runs; added while it runs \(names[Int(lateState)]); started before it ended: \(lateStartedBeforeBarrierEnd)"
    )
case "barriercancel":  // cancel-all cancels a waiting barrier while a (ignoring the cancel) runs: the states it goes through until it finishes
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 2
    let a = W("a", 0.3)
    q.addOperation(a)
    q.addBarrierBlock { print("the barrier's block ran") }
    // The barrier's internal operation: the first of the queue's barrier
    // bucket (`__firstPriorityOperation.barrier`), read only.
    let buckets = Mirror(reflecting: q).children.first { $0.label == "__firstPriorityOperation" }?.value
    let first = buckets.flatMap { b in Mirror(reflecting: b).children.first { $0.label == "barrier" }?.value }
    guard let handle = first as? Unmanaged<Operation> else {
        print("no barrier bucket to read")
        break
    }
    let barrier = handle.takeUnretainedValue()
    Thread.sleep(forTimeInterval: 0.1)
    q.cancelAllOperations()
    var seen = [st(barrier)]
    let end = Date(timeIntervalSinceNow: 2)
    while Date() < end, !barrier.isFinished {
        let now = st(barrier)
        if now != seen.last { seen.append(now) }
    }
    // isFinished says true from `finishing` on: the last step, to
    // `finished`, may come a moment after the loop's last look.
    let settle = Date(timeIntervalSinceNow: 1)
    while Date() < settle, st(barrier) != 7 {
        let now = st(barrier)
        if now != seen.last { seen.append(now) }
    }
    let now = st(barrier)
    if now != seen.last { seen.append(now) }
    print(
        "cancelled barrier: \(seen.map { names[Int($0)] }.joined(separator: " → ")); a finished first: \(a.isFinished)")
    q.waitUntilAllOperationsAreFinished()
case "noinherit":  // serial q: busy, then 5 normal jobs, then low (veryLow); high (veryHigh, on another queue) depends on low: does low run before the jobs?
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 1
    let other = OperationQueue()
    var order: [String] = []
    let lock = NSLock()
    final class R: Operation, @unchecked Sendable {
        let n: String
        let d: Double
        let log: (String) -> Void
        init(_ n: String, _ d: Double, _ log: @escaping (String) -> Void) {
            self.n = n
            self.d = d
            self.log = log
        }
        override func main() {
            log(n)
            Thread.sleep(forTimeInterval: d)
        }
    }
    let note: (String) -> Void = { n in
        lock.lock()
        order.append(n)
        lock.unlock()
    }
    let busy = R("busy", 0.1, note)
    let jobs = (1...5).map { R("job\($0)", 0.02, note) }
    let low = R("low", 0.02, note)
    low.queuePriority = .veryLow
    let high = R("high", 0.01, note)
    high.queuePriority = .veryHigh
    high.qualityOfService = .userInteractive
    high.addDependency(low)
    q.addOperation(busy)
    for j in jobs { q.addOperation(j) }
    q.addOperation(low)
    other.addOperation(high)
    other.waitUntilAllOperationsAreFinished()
    q.waitUntilAllOperationsAreFinished()
    print("noinherit start order: \(lock.withLock { order }.joined(separator: ","))")
case "batch", "onebyone":  // serial queue: normal, low, veryHigh, veryLow added in one addOperations call, or one by one: start order
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 1
    let lock = NSLock()
    nonisolated(unsafe) var order: [String] = []
    let levels: [(String, Operation.QueuePriority)] = [
        ("normal", .normal), ("low", .low), ("veryHigh", .veryHigh), ("veryLow", .veryLow),
    ]
    let ops = levels.map { name, level in
        let op = BlockOperation {
            lock.lock()
            order.append(name)
            lock.unlock()
            Thread.sleep(forTimeInterval: 0.01)
        }
        op.queuePriority = level
        return op
    }
    if which == "batch" { q.addOperations(ops, waitUntilFinished: false) } else { for o in ops { q.addOperation(o) } }
    q.waitUntilAllOperationsAreFinished()
    print("\(which) start order: \(order.joined(separator: ","))")
case "batchbusy":  // serial queue busy with a running op: a batch added behind it starts by priority too (and one by one as well)
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 1
    let lock = NSLock()
    nonisolated(unsafe) var order: [String] = []
    q.addOperation(W("busy", 0.05))
    Thread.sleep(forTimeInterval: 0.01)
    let levels: [(String, Operation.QueuePriority)] = [("normal", .normal), ("low", .low), ("veryHigh", .veryHigh)]
    let ops = levels.map { name, level in
        let op = BlockOperation {
            lock.lock()
            order.append(name)
            lock.unlock()
        }
        op.queuePriority = level
        return op
    }
    q.addOperations(ops, waitUntilFinished: false)
    q.waitUntilAllOperationsAreFinished()
    print("batchbusy start order: \(order.joined(separator: ","))")
case "cyclebreak", "cyclenone":  // op1 after op2, op2 after op3, op3 after op1 on one queue; cyclebreak cancels op3 right after the adds
    let q = OperationQueue()
    let lock = NSLock()
    nonisolated(unsafe) var events: [String] = []
    let note: @Sendable (String) -> Void = { s in
        lock.lock()
        events.append(s)
        lock.unlock()
    }
    let op1 = BlockOperation { note("op1 ran") }
    let op2 = BlockOperation { note("op2 ran") }
    let op3 = BlockOperation { note("op3 ran") }
    op1.completionBlock = { note("op1 done") }
    op2.completionBlock = { note("op2 done") }
    op3.completionBlock = { note("op3 done") }
    op1.addDependency(op2)
    op2.addDependency(op3)
    op3.addDependency(op1)
    q.addOperation(op1)
    q.addOperation(op2)
    q.addOperation(op3)
    let readyBefore = op3.isReady
    if which == "cyclebreak" { op3.cancel() }
    let readyAfter = op3.isReady
    Thread.sleep(forTimeInterval: 0.3)
    lock.lock()
    let seen = events.filter { $0.hasSuffix("ran") }
    lock.unlock()
    print(
        "\(which): op3 ready before cancel \(readyBefore), after \(readyAfter); ran: \(seen.isEmpty ? "nothing" : seen.joined(separator: ",")); finished op1 \(op1.isFinished) op2 \(op2.isFinished) op3 \(op3.isFinished) (cancelled \(op3.isCancelled)); operationCount \(q.operationCount)"
    )
    if which == "cyclenone" { exit(0) }
case "qosqueue", "qosserial":  // suspended queue of cap 2 (qosqueue) or 1 (qosserial): plain, bg (background), ui (userInteractive), marked (utility, queuePriority high); resume: start order
    let q = OperationQueue()
    q.maxConcurrentOperationCount = which == "qosqueue" ? 2 : 1
    q.isSuspended = true
    let lock = NSLock()
    nonisolated(unsafe) var order: [String] = []
    let specs: [(String, QualityOfService?, Operation.QueuePriority?)] = [
        ("plain", nil, nil), ("bg", .background, nil), ("ui", .userInteractive, nil), ("marked", .utility, .high),
    ]
    for (name, qos, priority) in specs {
        let op = BlockOperation {
            lock.lock()
            order.append(name)
            lock.unlock()
            // With cap 2, ui holds one slot long, so the last two are picked
            // one at a time (a slot given back by one short operation): two
            // picked together would start in a race between their threads.
            Thread.sleep(forTimeInterval: which == "qosqueue" && name == "ui" ? 0.5 : 0.02)
        }
        if let qos { op.qualityOfService = qos }
        if let priority { op.queuePriority = priority }
        q.addOperation(op)
    }
    // cap 2 starts two at once: the order of the first two is a race, so only the pair is kept
    q.isSuspended = false
    q.waitUntilAllOperationsAreFinished()
    let shown =
        which == "qosqueue" ? [Set(order.prefix(2)).sorted().joined(separator: "+")] + order.dropFirst(2) : order
    print("\(which) start order: \(shown.joined(separator: ","))")
case "prioqos":  // serial, suspended: a (userInitiated, filed normal), b normal; a.queuePriority = veryLow, then c normal added; resume: start order
    let q = OperationQueue()
    q.maxConcurrentOperationCount = 1
    q.isSuspended = true
    let lock = NSLock()
    nonisolated(unsafe) var order: [String] = []
    let make = { (name: String) in
        BlockOperation {
            lock.lock()
            order.append(name)
            lock.unlock()
        }
    }
    let a = make("a")
    let b = make("b")
    let c = make("c")
    a.qualityOfService = .userInitiated
    q.addOperation(a)
    q.addOperation(b)
    a.queuePriority = .veryLow
    q.addOperation(c)
    q.isSuspended = false
    q.waitUntilAllOperationsAreFinished()
    print(
        "prioqos start order: \(order.joined(separator: ",")); a.queuePriority reads \(a.queuePriority == .veryLow ? "veryLow" : "other")"
    )
case "untold", "toldtwice":  // an async op tells its finish 0 or 2 times: what Foundation does after 1 s
    let op = Async(tells: which == "untold" ? 0 : 2)
    let dependentRan = Count()
    let completions = Count()
    let dependent = BlockOperation { dependentRan.add() }
    dependent.addDependency(op)
    op.completionBlock = { completions.add() }
    let q = OperationQueue()
    q.addOperations([op, dependent], waitUntilFinished: false)
    Thread.sleep(forTimeInterval: 1)
    let waited = Count()
    Thread {
        op.waitUntilFinished()
        waited.add()
    }.start()
    Thread.sleep(forTimeInterval: 0.5)
    print(
        "\(which): getter finished \(op.isFinished); dependent ran \(dependentRan.value); completion ran "
            + "\(completions.value); operationCount \(q.operationCount); waitUntilFinished returned \(waited.value == 1)")
case "completionkept":  // a completion block that captures its operation: alive after the run?
    weak var weakOp: Async?
    do {
        let q = OperationQueue()
        let op = Async(tells: 1)
        op.completionBlock = { _ = op.isFinished }
        weakOp = op
        q.addOperation(op)
        q.waitUntilAllOperationsAreFinished()
    }
    Thread.sleep(forTimeInterval: 0.5)
    print("completionkept: alive \(weakOp != nil); completionBlock cleared \(weakOp.map { $0.completionBlock == nil } ?? true)")
// GCD, for what `opscope swift --gcd` says GCD does differently (no
// Operation at all here).
case "gcdcancelnotify":  // a work item cancelled before its queue reaches it: does its block run, does its notify?
    let q = DispatchQueue(label: "q")
    q.suspend()
    let ran = Count()
    let item = DispatchWorkItem { ran.add() }
    let notified = DispatchSemaphore(value: 0)
    item.notify(queue: .global()) { notified.signal() }
    q.async(execute: item)
    item.cancel()
    q.resume()
    let came = notified.wait(timeout: .now() + 1) == .success
    q.sync {}
    print("gcdcancelnotify: block ran \(ran.value); notify came \(came)")
case "gcdcancelrunning":  // cancel() while a work item's block runs
    let started = DispatchSemaphore(value: 0)
    let seen = Count()
    let ended = Count()
    let box = ItemBox()
    box.item = DispatchWorkItem {
        started.signal()
        Thread.sleep(forTimeInterval: 0.2)
        if box.item?.isCancelled == true { seen.add() }
        ended.add()
    }
    DispatchQueue.global().async(execute: box.item!)
    started.wait()
    box.item?.cancel()
    box.item?.wait()
    print("gcdcancelrunning: block ran to its end \(ended.value == 1); isCancelled inside \(seen.value == 1)")
case "gcdserialqos":  // a serial queue: a background item, then a userInteractive one: which runs first?
    let q = DispatchQueue(label: "s")
    q.suspend()
    let order = NamesInOrder()
    q.async(execute: DispatchWorkItem(qos: .background, flags: .enforceQoS) { order.add("background") })
    q.async(execute: DispatchWorkItem(qos: .userInteractive, flags: .enforceQoS) { order.add("userInteractive") })
    q.resume()
    q.sync {}
    print("gcdserialqos: \(order.names.joined(separator: " then "))")
default: print("?")
}

final class ItemBox: @unchecked Sendable { var item: DispatchWorkItem? }
final class NamesInOrder: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ name: String) { lock.withLock { list.append(name) } }
    var names: [String] { lock.withLock { list } }
}
