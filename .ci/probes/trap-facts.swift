// The interview traps of Operation and OperationQueue, checked with plain
// Foundation (no opscope code): waiting on the main thread, start() by
// hand, synchronous operations that start asynchronous work, asynchronous
// operations that forget to finish, cancel() that does not reach the work,
// the completion block's hand-off and its retain cycle. One fact per
// argument, one line of outcome each; `run-traps` runs each of them many
// times and prints the outcomes that occurred. A fact that would stop the
// program runs in a child process (this program again, with the fact's
// name after `child`) and its line says how the child ended. A fact that
// hangs is caught by a watchdog thread that prints and exits.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Tools

let t0 = Date()
func now() -> Double { Date().timeIntervalSince(t0) }
/// Milliseconds rounded to the nearest 50 (below 25 ms: "<25ms").
func ms(_ s: Double) -> String { s < 0.025 ? "<25ms" : "\(Int((s * 1000 / 50).rounded()) * 50)ms" }
func tid() -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }
let mainTid = tid()
func say(_ s: String) { print(s); fflush(stdout) }
/// After `seconds`, prints `line` and ends the program: the way a hang is seen.
func watchdog(_ seconds: Double, _ line: @escaping @Sendable () -> String) {
    let t = Thread { Thread.sleep(forTimeInterval: seconds); say(line()); exit(0) }
    t.start()
}
/// Lets the main thread serve the main queue for `seconds`.
func spin(_ seconds: Double) { RunLoop.main.run(until: Date(timeIntervalSinceNow: seconds)) }

/// A list of events, each with its time, in the order they happened.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(String, Double)] = []
    func add(_ e: String) { lock.withLock { events.append((e, now())) } }
    func has(_ e: String) -> Bool { lock.withLock { events.contains { $0.0 == e } } }
    func time(_ e: String) -> Double? { lock.withLock { events.first { $0.0 == e }?.1 } }
    var order: String { lock.withLock { events.map(\.0).joined(separator: " → ") } }
}
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var v = 0
    func bump() { lock.withLock { v += 1 } }
    var count: Int { lock.withLock { v } }
}

// The run's own reader: `run-traps` compiles
// Sources/LifecycleEngine/EngineState.swift with this file.
guard let engine = EngineState.shared else { fatalError("EngineState: this Foundation's operation state cannot be read") }
/// Foundation's states, in the declaration's case order (`EngineState.state(of:)`).
let names = ["initialized", "enqueuing", "enqueued", "dispatching", "starting", "executing", "finishing", "finished"]
func state(_ op: Operation) -> String { names[Int(engine.state(of: op))] }

/// A synchronous operation: main() runs `body`.
final class Sync: Operation, @unchecked Sendable {
    let body: @Sendable (Sync) -> Void
    let runs = Flag()
    init(_ name: String, _ body: @escaping @Sendable (Sync) -> Void) { self.body = body; super.init(); self.name = name }
    override func main() { runs.bump(); body(self) }
}
func sleeper(_ name: String, _ s: Double) -> Sync { Sync(name) { _ in Thread.sleep(forTimeInterval: s) } }

/// An asynchronous operation with its own isExecuting/isFinished, posted the
/// way this Foundation listens (didChangeValue(forKey:)). `begin` is what its
/// start() does; `finish()` is the correct ending.
final class Async: Operation, @unchecked Sendable {
    private let lock = NSLock()
    private var _executing = false, _finished = false
    let starts = Flag()
    var begin: (Async) -> Void = { $0.finish() }
    var onCancel: ((Async) -> Void)?
    init(_ name: String) { super.init(); self.name = name }
    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { _executing } }
    override var isFinished: Bool { lock.withLock { _finished } }
    override func start() { starts.bump(); begin(self) }
    override func cancel() { super.cancel(); onCancel?(self) }
    func executing() {
        willChangeValue(forKey: "isExecuting")
        lock.withLock { _executing = true }
        didChangeValue(forKey: "isExecuting")
    }
    func finish() {
        willChangeValue(forKey: "isExecuting"); willChangeValue(forKey: "isFinished")
        lock.withLock { _executing = false; _finished = true }
        didChangeValue(forKey: "isExecuting"); didChangeValue(forKey: "isFinished")
    }
    /// Sets the flags and posts nothing.
    func finishSilently() { lock.withLock { _executing = false; _finished = true } }
}

/// Runs this program again with `child FACT` and says how it ended: exit
/// status or signal, and the fatal error's message from its standard error
/// (addresses written 0x…).
func child(_ fact: String) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    p.arguments = ["child", fact]
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardOutput = out; p.standardError = err
    try! p.run()
    let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 5, execute: killer)
    let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit(); killer.cancel()
    func clean(_ s: String) -> String {
        s.replacingOccurrences(of: "0x[0-9a-fA-F]+", with: "0x…", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let how = p.terminationReason == .uncaughtSignal
        ? "killed by signal \(p.terminationStatus)\(p.terminationStatus == 4 ? " (SIGILL)" : p.terminationStatus == 5 ? " (SIGTRAP)" : p.terminationStatus == 15 ? " (SIGTERM: still running after 5 s)" : "")"
        : "exit \(p.terminationStatus)"
    let fatal = e.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("fatal") }.map { clean(String($0)) } ?? "no fatal error on stderr"
    let said = o.split(separator: "\n").map { clean(String($0)) }.joined(separator: " | ")
    return "\(fact): \(how); stderr: \(fatal); stdout: \(said.isEmpty ? "-" : said)"
}

// MARK: - The facts

let args = CommandLine.arguments
let inChild = args.count > 2 && args[1] == "child"
let which = inChild ? args[2] : args[1]
/// The facts that stop the program, or might (starting an operation of a queue by hand): each runs in a child.
let inChildProcess: Set = ["mainq-mainsync", "start-not-ready", "start-dep-cancelled", "start-queued-suspended", "start-executing", "start-dispatched", "astart-queued", "astart-queued-cap"]
if inChildProcess.contains(which) && !inChild {
    say(child(which))
    exit(0)
}

switch which {

// 1. Waiting on the main thread

case "wait-bg-op", "wait-bg-all":  // an operation of 300 ms on a background queue; the main thread waits
    let q = OperationQueue()
    let op = sleeper("bg", 0.3)
    let log = Log()
    DispatchQueue.main.async { log.add("main-queue block") }
    OperationQueue.main.addOperation { log.add("main-queue operation") }
    q.addOperation(op)
    let s = now()
    if which == "wait-bg-op" { op.waitUntilFinished() } else { q.waitUntilAllOperationsAreFinished() }
    let blocked = now() - s
    log.add("wait returned")
    spin(0.2)
    say("\(which): main thread blocked \(ms(blocked)) (op 300ms); on the main thread: \(log.order)")

case "wait-mainq-op", "wait-mainq-all", "wait-mainq-addwait":  // the main thread waits for an operation of OperationQueue.main
    let op = sleeper("m", 0.05)
    let s = now()
    watchdog(2) { "\(which): HANG (still waiting after 2s, op \(state(op)), ran \(op.runs.count) times)" }
    switch which {
    case "wait-mainq-op": OperationQueue.main.addOperation(op); op.waitUntilFinished()
    case "wait-mainq-all": OperationQueue.main.addOperation(op); OperationQueue.main.waitUntilAllOperationsAreFinished()
    default: OperationQueue.main.addOperations([op], waitUntilFinished: true)
    }
    say("\(which): returned after \(ms(now() - s))")

case "wait-bg-needs-main":  // a background operation that depends on a main-queue one; the main thread waits for it
    let q = OperationQueue()
    let m = sleeper("m", 0.05), b = sleeper("b", 0.05)
    b.addDependency(m)
    OperationQueue.main.addOperation(m); q.addOperation(b)
    watchdog(2) { "\(which): HANG (after 2s: main-queue op \(state(m)), background op \(state(b)))" }
    b.waitUntilFinished()
    say("\(which): returned")

case "wait-bg-mainsync":  // a background operation whose main() does DispatchQueue.main.sync; the main thread waits for it
    let q = OperationQueue()
    let b = Sync("b") { _ in DispatchQueue.main.sync { } }
    q.addOperation(b)
    watchdog(2) { "\(which): HANG (after 2s: background op \(state(b)), blocked in DispatchQueue.main.sync)" }
    b.waitUntilFinished()
    say("\(which): returned")

case "mainq-mainsync":  // (child) an operation of OperationQueue.main whose main() does DispatchQueue.main.sync (kata main-thread)
    let log = Log()
    OperationQueue.main.addOperation(Sync("m") { _ in
        say("main() on the main thread: \(Thread.isMainThread)")
        DispatchQueue.main.sync { log.add("sync block") }
        say("main.sync returned")
    })
    spin(2)
    say("still running after 2s")

case "wait-self":  // an operation that calls its own waitUntilFinished() in main()
    let q = OperationQueue()
    let b = Sync("b") { $0.waitUntilFinished() }
    q.addOperation(b)
    watchdog(2) { "\(which): HANG (after 2s: op \(state(b)), blocked in its own waitUntilFinished)" }
    b.waitUntilFinished()
    say("\(which): returned")

case "wait-suspended", "wait-suspended-cancelled", "wait-suspended-empty":  // waitUntilAllOperationsAreFinished on a suspended queue
    let q = OperationQueue(); q.isSuspended = true
    let op = sleeper("s", 0.01)
    if which != "wait-suspended-empty" { q.addOperation(op) }
    if which == "wait-suspended-cancelled" { op.cancel() }
    let s = now()
    watchdog(2) { "\(which): HANG (after 2s: op \(state(op)), cancelled \(op.isCancelled), operationCount \(q.operationCount))" }
    q.waitUntilAllOperationsAreFinished()
    say("\(which): returned after \(ms(now() - s))")

case "wait-never-added", "wait-never-added-cancelled", "wait-hand-finished", "wait-empty-main", "wait-empty-queue":
    let op = sleeper("x", 0.01)
    if which == "wait-never-added-cancelled" { op.cancel() }
    if which == "wait-hand-finished" { op.start() }
    let s = now()
    watchdog(2) { "\(which): HANG (after 2s: op \(state(op)), isFinished \(op.isFinished), isCancelled \(op.isCancelled))" }
    switch which {
    case "wait-empty-main": OperationQueue.main.waitUntilAllOperationsAreFinished()
    case "wait-empty-queue": OperationQueue().waitUntilAllOperationsAreFinished()
    default: op.waitUntilFinished()
    }
    say("\(which): returned after \(ms(now() - s))")

// 2. start() by hand

case "start-hand":  // a synchronous operation in no queue, started by hand on the main thread
    let log = Log()
    let op = Sync("h") { _ in
        log.add(Thread.isMainThread ? "main() on main thread" : "main() off main thread")
        log.add(tid() == mainTid ? "on caller's thread" : "on another thread")
        Thread.sleep(forTimeInterval: 0.1); log.add("main() returns")
    }
    op.completionBlock = { log.add("completion (\(Thread.isMainThread ? "main" : tid() == mainTid ? "caller" : "other") thread)") }
    let s = now()
    op.start()
    log.add("start() returned")
    let took = now() - s
    let fin = op.isFinished
    Thread.sleep(forTimeInterval: 0.1)
    say("start-hand: start() took \(ms(took)), isFinished after it \(fin); \(log.order)")

case "start-twice", "start-cancelled", "start-queued-finished", "start-dep-finished":
    let op = sleeper("h", 0.01)
    switch which {
    case "start-twice": op.start(); op.start()
    case "start-cancelled": op.cancel(); op.start()
    case "start-queued-finished":
        let q = OperationQueue(); q.addOperation(op); q.waitUntilAllOperationsAreFinished(); op.start()
    default:
        let d = sleeper("d", 0.01); op.addDependency(d); d.start(); op.start()
    }
    say("\(which): no crash; main() ran \(op.runs.count) times; isFinished \(op.isFinished), isCancelled \(op.isCancelled)")

case "start-not-ready":  // (child) its dependency has not finished
    let d = sleeper("d", 0.01), op = sleeper("h", 0.01)
    op.addDependency(d)
    say("isReady \(op.isReady); calling start()")
    op.start()
    say("start() returned; main() ran \(op.runs.count) times")

case "dep-cancelled-unqueued":  // b, in a queue, depends on d, which is in no queue and cancelled
    let q = OperationQueue()
    let d = sleeper("d", 0.01), b = sleeper("b", 0.01)
    b.addDependency(d)
    d.cancel()
    q.addOperation(b)
    Thread.sleep(forTimeInterval: 0.5)
    say("\(which): after 500ms d isFinished \(d.isFinished); b isReady \(b.isReady), engine state \(state(b)), ran \(b.runs.count) times")

case "start-dep-cancelled":  // (child) its dependency was cancelled but never started (in no queue)
    let d = sleeper("d", 0.01), op = sleeper("h", 0.01)
    op.addDependency(d)
    d.cancel()
    say("dependency cancelled \(d.isCancelled), finished \(d.isFinished); isReady \(op.isReady); calling start()")
    op.start()
    say("start() returned; main() ran \(op.runs.count) times")

case "start-queued-suspended":  // (child) in a suspended queue, not yet dispatched
    let q = OperationQueue(); q.isSuspended = true
    let op = sleeper("h", 0.01)
    q.addOperation(op)
    say("state \(state(op)); calling start()")
    op.start()
    say("start() returned; main() ran \(op.runs.count) times")

case "start-executing":  // (child) executing on a queue's worker
    let q = OperationQueue()
    let op = sleeper("h", 1)
    q.addOperation(op)
    while state(op) != "executing" { Thread.sleep(forTimeInterval: 0.001) }
    say("state \(state(op)); calling start()")
    op.start()
    say("start() returned; main() ran \(op.runs.count) times")

case "start-dispatched":  // (child) dispatched by its queue, waiting for a worker thread
    let q = OperationQueue(); q.maxConcurrentOperationCount = 6
    let ops = (0..<6).map { sleeper("o\($0)", 1.5) }
    for o in ops { q.addOperation(o) }
    Thread.sleep(forTimeInterval: 0.1)
    guard let op = ops.first(where: { state($0) == "dispatching" }) else { say("no operation waited for a thread"); exit(0) }
    say("state \(state(op)); calling start()")
    op.start()
    say("start() returned; main() ran \(op.runs.count) times")

case "astart-queued":  // (child) an asynchronous operation in a suspended queue, started by hand, then the queue resumed
    let q = OperationQueue(); q.isSuspended = true
    let op = Async("a")
    op.begin = { o in o.executing(); DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { o.finish() } }
    q.addOperation(op)
    op.start()
    Thread.sleep(forTimeInterval: 0.2)
    say("after start() by hand: start ran \(op.starts.count) times, isFinished \(op.isFinished), engine state \(state(op)), operationCount \(q.operationCount)")
    q.isSuspended = false
    Thread.sleep(forTimeInterval: 0.3)
    say("after resume: start ran \(op.starts.count) times, operationCount \(q.operationCount)")

case "astart-queued-cap":  // a serial queue runs x (500 ms); y, asynchronous, waits behind it and is started by hand; z waits behind y
    let q = OperationQueue(); q.maxConcurrentOperationCount = 1
    let log = Log()
    let x = Sync("x") { _ in log.add("x begins"); Thread.sleep(forTimeInterval: 0.5); log.add("x ends") }
    let y = Async("y")
    y.begin = { o in log.add("y starts"); o.executing(); DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { log.add("y finishes"); o.finish() } }
    let z = Sync("z") { _ in log.add("z begins"); Thread.sleep(forTimeInterval: 0.1) }
    q.addOperations([x, y, z], waitUntilFinished: false)
    while !log.has("x begins") { Thread.sleep(forTimeInterval: 0.001) }
    y.start()
    q.waitUntilAllOperationsAreFinished()
    say("\(which): start ran \(y.starts.count) times; \(log.order)")

case "astart-not-ready":  // an asynchronous operation whose dependency has not finished, started by hand
    let d = sleeper("d", 0.01)
    let op = Async("a")
    op.addDependency(d)
    let ready = op.isReady
    op.start()
    say("\(which): isReady \(ready); no crash; start ran \(op.starts.count) times, isFinished \(op.isFinished)")

case "astart-twice":  // an asynchronous operation in no queue, started by hand twice
    let op = Async("a")
    op.begin = { o in o.executing(); DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { o.finish() } }
    op.start(); op.start()
    Thread.sleep(forTimeInterval: 0.2)
    op.start()
    Thread.sleep(forTimeInterval: 0.2)
    say("astart-twice: no crash; start ran \(op.starts.count) times (twice at once, once after it finished), isFinished \(op.isFinished)")

// 3. A synchronous operation whose main() starts asynchronous work

case "sync-starts-async":
    let log = Log()
    let q = OperationQueue()
    let a = Sync("a") { _ in
        log.add("A main() begins")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { log.add("A's async work ends") }
        log.add("A main() returns")
    }
    a.completionBlock = { log.add("A completion") }
    let b = Sync("b") { _ in log.add("B main() begins") }
    b.addDependency(a)
    q.addOperations([a, b], waitUntilFinished: false)
    q.waitUntilAllOperationsAreFinished()
    let finishedAt = now()
    Thread.sleep(forTimeInterval: 0.4)
    let bStart = log.time("B main() begins")!, workEnd = log.time("A's async work ends")!
    say("sync-starts-async: A finished \(ms(workEnd - finishedAt)) before its work ended; B began \(ms(workEnd - bStart)) before it; order with A's completion: \(log.order)")

// 4. An asynchronous operation that forgets to finish on one path

case "async-forget-cancel", "async-right-cancel", "async-forget-error", "async-right-error", "async-flag-only-cancel", "async-flag-only-late", "async-flag-only-late-alone":
    // A on a serial queue q, cancelled before it is added (the cancel cases); C after it on q; D on another queue depends on A
    // (-alone: A by itself).
    let q = OperationQueue(); q.maxConcurrentOperationCount = 1
    let other = OperationQueue()
    let a = Async("a")
    let work: (Async, Bool) -> Void = { o, ok in  // 100 ms of work, then finish (ok) or return on the error branch
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            if ok { o.finish() } else if which == "async-right-error" { o.finish() }
        }
    }
    switch which {
    case "async-forget-cancel": a.begin = { o in if o.isCancelled { return }; o.executing(); work(o, true) }
    case "async-right-cancel": a.begin = { o in if o.isCancelled { o.finish(); return }; o.executing(); work(o, true) }
    case "async-flag-only-cancel": a.begin = { o in if o.isCancelled { o.finishSilently(); return }; o.executing(); work(o, true) }
    case "async-flag-only-late", "async-flag-only-late-alone": a.begin = { o in o.executing(); DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { o.finishSilently() } }
    default: a.begin = { o in if o.isCancelled { o.finish(); return }; o.executing(); work(o, false) }
    }
    if which.hasSuffix("-cancel") { a.cancel() }
    let c = sleeper("c", 0.01), d = sleeper("d", 0.01)
    q.addOperation(a)
    if !which.hasSuffix("-alone") { d.addDependency(a); q.addOperation(c); other.addOperation(d) }
    Thread.sleep(forTimeInterval: 0.5)
    let line = "\(which): after 500ms A isExecuting \(a.isExecuting) isFinished \(a.isFinished), engine state \(state(a)); C (next on its serial queue) ran \(c.runs.count > 0); D (depends on A) ran \(d.runs.count > 0); operationCount \(q.operationCount)"
    let s = now()
    let cpu0 = clock()
    watchdog(1.5) { "\(line); waitUntilAllOperationsAreFinished: HANG (1.5s, \(Double(clock() - cpu0) / Double(CLOCKS_PER_SEC) > 0.5 ? "spinning: over 0.5s of CPU" : "asleep: under 0.5s of CPU"))" }
    q.waitUntilAllOperationsAreFinished()
    say("\(line); waitUntilAllOperationsAreFinished returned after \(ms(now() - s))")

// 5. cancel() does not reach the work an asynchronous operation started

case "cancel-workitem", "cancel-workitem-override":
    let log = Log()
    let q = OperationQueue(), other = OperationQueue()
    let a = Async("a")
    let timers = DispatchQueue(label: "timers")
    var item: DispatchWorkItem?
    a.begin = { o in
        if o.isCancelled { o.finish(); return }
        o.executing()
        let w = DispatchWorkItem { log.add("work ran"); o.finish() }
        item = w
        timers.asyncAfter(deadline: .now() + 0.5, execute: w)
    }
    if which == "cancel-workitem-override" {
        a.onCancel = { o in timers.sync { item?.cancel() }; if o.isExecuting { o.finish() } }
    }
    a.completionBlock = { log.add("A's completion block") }
    let d = Sync("d") { _ in log.add("dependent ran") }
    d.addDependency(a)
    q.addOperation(a); other.addOperation(d)
    Thread.sleep(forTimeInterval: 0.1)
    let cancelAt = now()
    a.cancel()
    log.add("cancel() returned")
    Thread.sleep(forTimeInterval: 0.7)
    let fin = log.time("A's completion block").map { ms($0 - cancelAt) } ?? "never"
    say("\(which): A's completion block ran \(fin) after cancel(); isCancelled \(a.isCancelled); order: \(log.order)")

case "cancel-urlsession", "cancel-urlsession-override":
    // A local TCP listener that accepts into its backlog and never answers.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET); addr.sin_port = 0; addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    listen(fd, 8)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    let port = Int(UInt16(bigEndian: addr.sin_port))
    let log = Log()
    let q = OperationQueue()
    let a = Async("fetch")
    var task: URLSessionDataTask?
    a.begin = { o in
        if o.isCancelled { o.finish(); return }
        o.executing()
        var req = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)
        req.timeoutInterval = 1.5
        let t = URLSession.shared.dataTask(with: req) { _, _, err in
            log.add("task ended (\((err as NSError?).map { "error \($0.code)" } ?? "no error"))")
            o.finish()
        }
        task = t
        log.add("task resumed")
        t.resume()
    }
    if which == "cancel-urlsession-override" { a.onCancel = { _ in task?.cancel() } }
    a.completionBlock = { log.add("A finished") }
    q.addOperation(a)
    Thread.sleep(forTimeInterval: 0.2)
    let cancelAt = now()
    a.cancel()
    Thread.sleep(forTimeInterval: 0.5)
    let st = task.map { ["running", "suspended", "canceling", "completed"][$0.state.rawValue] } ?? "none"
    Thread.sleep(forTimeInterval: 1.3)
    let fin = log.time("A finished").map { ms($0 - cancelAt) } ?? "not within 1.8s"
    let ended = log.time("task resumed").flatMap { r in log.time("A finished").map { String(format: "%.1fs", $0 - r) } } ?? "-"
    say("\(which): 500ms after cancel() the task was \(st); A finished \(fin) after cancel(), \(ended) after the task's resume (timeoutInterval 1.5s); \(log.order)")
    close(fd)

// 6. The completion block's hand-off to a dependent

case "handoff", "handoff-sleep", "handoff-x200":  // A's completion block writes a result (after 20 ms in -sleep); B, which depends on A, reads it
    @Sendable func handoff(sleep: Bool) -> Bool {
        let lock = NSLock()
        nonisolated(unsafe) var result: String?
        nonisolated(unsafe) var seen = false
        let q = OperationQueue()
        let a = sleeper("a", 0.005)
        let b = Sync("b") { _ in seen = lock.withLock { result } != nil }
        a.completionBlock = {
            if sleep { Thread.sleep(forTimeInterval: 0.02) }
            lock.withLock { result = "done" }
        }
        b.addDependency(a)
        q.addOperations([a, b], waitUntilFinished: true)
        return seen
    }
    if which == "handoff-x200" {
        let seen = (0..<200).filter { _ in handoff(sleep: false) }.count
        say("\(which): B read the result in \(seen) of 200 hand-offs in one process")
    } else {
        say("\(which): \(handoff(sleep: which == "handoff-sleep") ? "B read the result" : "B read nothing")")
    }

case "completion-vs-dependent":  // where the dependent is when A's completion block begins, and where the block runs
    let q = OperationQueue()
    nonisolated(unsafe) var aThread: UInt = 0
    let a = Sync("a") { _ in aThread = tid() }
    let b = sleeper("b", 0.005)
    b.addDependency(a)
    let log = Log()
    a.completionBlock = {
        log.add("B \(state(b)) when A's completion began")
        log.add(Thread.isMainThread ? "completion on main thread" : "completion on a pool thread")
        log.add(tid() == aThread ? "A's own thread" : "not A's thread")
    }
    q.addOperations([a, b], waitUntilFinished: true)
    Thread.sleep(forTimeInterval: 0.05)
    say("\(which): \(log.order)")

case "completion-vs-dependent-x200":  // B's state when A's completion block begins, over 200 hand-offs in one process
    var states: [String: Int] = [:]
    for _ in 0..<200 {
        let q = OperationQueue()
        let a = Sync("a") { _ in }, b = sleeper("b", 0.001)
        b.addDependency(a)
        let lock = NSLock()
        nonisolated(unsafe) var seen = ""
        a.completionBlock = { let s = state(b); lock.withLock { seen = s } }
        q.addOperations([a, b], waitUntilFinished: true)
        while lock.withLock({ seen.isEmpty }) { Thread.sleep(forTimeInterval: 0.0005) }
        states[seen, default: 0] += 1
    }
    say("\(which): B at the start of A's completion block: \(states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); B not yet dispatched: \(states.filter { ["initialized", "enqueuing", "enqueued"].contains($0.key) }.values.reduce(0, +)) of 200")

case "completion-mainq":  // the completion block of an operation of OperationQueue.main
    let log = Log()
    let a = Sync("a") { _ in }
    a.completionBlock = { log.add(Thread.isMainThread ? "completion on main thread" : "completion on a pool thread") }
    OperationQueue.main.addOperation(a)
    spin(0.2)
    say("\(which): \(log.order)")

// 7. A completion block that captures its operation

case "cycle-strong", "cycle-weak", "cycle-clear", "cycle-none", "cycle-hand":
    final class Probe: Operation, @unchecked Sendable {
        let gone: Flag
        init(_ gone: Flag) { self.gone = gone }
        override func main() { }
        deinit { gone.bump() }
    }
    let gone = Flag(), ran = Flag()
    nonisolated(unsafe) weak var w: Probe?
    nonisolated(unsafe) var blockKept = false
    func trial() {
        let op = Probe(gone)
        op.name = "p"
        switch which {
        case "cycle-strong", "cycle-hand": op.completionBlock = { _ = op.name; ran.bump() }
        case "cycle-weak": op.completionBlock = { [weak op] in _ = op?.name; ran.bump() }
        case "cycle-clear": op.completionBlock = { _ = op.name; ran.bump(); op.completionBlock = nil }
        default: ran.bump()
        }
        w = op
        if which == "cycle-hand" { op.start() } else {
            let q = OperationQueue(); q.addOperation(op); q.waitUntilAllOperationsAreFinished()
        }
    }
    trial()
    Thread.sleep(forTimeInterval: 0.2)
    blockKept = w?.completionBlock != nil
    say("\(which): completion ran \(ran.count > 0); operation released \(w == nil) (deinit ran \(gone.count > 0)); completionBlock still set after it ran \(w == nil ? "n/a (released)" : "\(blockKept)")")

default:
    say("unknown fact \(which)")
}
