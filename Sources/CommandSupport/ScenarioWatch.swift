import Foundation
import ScenarioKit
import Synchronization

/// `--watch`: a scenario file read and checked again each time it is
/// saved, off the main thread, and what came of it handed to `deliver`
/// (which posts it to the main queue).
///
/// Each save is read, parsed and validated on a thread of its own, so the
/// main thread, which draws and runs the `main` queue, never waits for the
/// disk or for the language; it only gets a scenario ready to run, or the
/// diagnostics to show, or why there is nothing to read.
///
/// A newer save replaces the read of an older one: the older read is given
/// up at its next look (`ReadCancellation`) and never delivered, while the
/// newer one is read at once beside it, so a small save over a file of
/// millions of lines does not wait for that file's read. Once a read has
/// begun, no older one is delivered after it.
package final class ScenarioWatch: Sendable {
    /// What a save gave.
    package enum Reload: Sendable {
        /// The file reads without errors: the scenario to run, the file as
        /// read, and what changed since the last one that did.
        case scenario(Scenario, SourceFile, ScenarioChanges)
        /// The file has errors: the result with its diagnostics, and the
        /// file as read (for the source lines under the carets).
        case problems(ParseResult, SourceFile)
        /// There is nothing to read now (removed, a folder or a symbolic
        /// link loop in its place, not readable), and why. The next save
        /// tries again.
        case unreadable(Unreadable)
    }

    /// A reload as it arrives on the main queue, which may be behind: a
    /// newer one can be on its way already.
    package struct Arrival: Sendable {
        package let reload: Reload
        /// What the watch's `prepare` made of a scenario on the read's
        /// thread (nil for the other reloads, or without `prepare`).
        package let prepared: (any Sendable)?
        private let newer: @Sendable () -> Bool

        init(_ reload: Reload, prepared: (any Sendable)?, newer: @escaping @Sendable () -> Bool) {
            self.reload = reload
            self.prepared = prepared
            self.newer = newer
        }

        /// A newer reload was delivered since this one (for a scenario, a
        /// newer scenario: a newer save with errors does not make an older
        /// good one stale, it shows over it). Its receiver skips it: what
        /// is shown is the newest save that reads.
        package var isSuperseded: Bool { newer() }
    }

    private let watch: FileWatch
    private let reads: Reads
    /// The user's Swift files the scenario names (`code`), watched too: a
    /// save of one reads the scenario again (`watchCode`).
    private let codeWatches = Mutex<(paths: [String], watches: [FileWatch])>(([], []))
    package var mechanism: FileWatch.Mechanism { watch.mechanism }

    private init(watch: FileWatch, reads: Reads) {
        self.watch = watch
        self.reads = reads
    }

    /// Watches `paths` too, in place of those watched before: each save of
    /// one is taken as a save of the scenario (the file read again, a run
    /// of it made anew). The same paths again change nothing.
    package func watchCode(_ paths: [String]) {
        codeWatches.withLock { current in
            guard current.paths != paths else { return }
            for old in current.watches { old.stop() }
            let reads = reads
            current = (paths, paths.compactMap { FileWatch.start($0) { reads.saved() } })
        }
    }

    /// Watches `path`; `scenario` is the run shown now, what the first
    /// save's changes are counted from. `deliver` is called on a read's
    /// thread, in the order of the saves. nil when no watch can be started.
    ///
    /// `prepare`, called on the read's thread with each scenario read, makes
    /// what its receiver would otherwise build on the main thread (the
    /// board of a file of millions of operations takes seconds), so that
    /// the main thread only swaps it in; a save that replaces the read
    /// meanwhile makes its result go unused.
    package static func start(
        _ path: String, scenario: Scenario, debouncer: SaveDebouncer = SaveDebouncer(), polling: Bool = false,
        ownCode: ScenarioReader.OwnCode = .refused, prepare: (@Sendable (Scenario) -> any Sendable)? = nil,
        deliver: @escaping @Sendable (Arrival) -> Void
    ) -> ScenarioWatch? {
        let reads = Reads(path: path, last: scenario, ownCode: ownCode, prepare: prepare, deliver: deliver)
        let watch = FileWatch.start(path, debouncer: debouncer, polling: polling) { reads.saved() }
        return watch.map { ScenarioWatch(watch: $0, reads: reads) }
    }

    /// Ends the watch: the read going on is given up, nothing more is
    /// delivered.
    package func stop() {
        watch.stop()
        codeWatches.withLock { current in
            for old in current.watches { old.stop() }
            current = ([], [])
        }
        reads.stop()
    }

    /// The file at `path` read and checked, its changes counted from
    /// `previous`; nil when the file changed while it was read.
    package static func read(_ path: String, since previous: Scenario) -> Reload? {
        read(path, since: previous, ownCode: .refused, unless: ReadCancellation { false })
    }

    /// `read(_:since:)`, given up (nil) once `cancellation` says so. An
    /// empty file is nil too unless `acceptsEmpty`: a writer that
    /// truncates the file, closes it and writes it again (a script's
    /// `: > FILE`, then its lines) leaves it empty for a moment.
    static func read(
        _ path: String, since previous: Scenario, ownCode: ScenarioReader.OwnCode,
        unless cancellation: ReadCancellation,
        acceptsEmpty: Bool = true
    ) -> Reload? {
        let bytes: [UInt8]
        switch SavedFile.read(path) {
        case .bytes(let read) where read.isEmpty && !acceptsEmpty: return nil
        case .bytes(let read): bytes = read
        case .changing: return nil
        case .unreadable(let reason): return .unreadable(reason)
        }
        let file = SourceFile(path: path, bytes: bytes)
        guard let result = ScenarioReader.read(file, ownCode: ownCode, unless: cancellation) else { return nil }
        guard let scenario = result.scenario, !result.hasErrors else { return .problems(result, file) }
        guard !cancellation.isCancelled else { return nil }
        return .scenario(scenario, file, ScenarioChanges(from: previous, to: scenario))
    }
}

/// The reads of one watch: each save's on a thread of its own, the one
/// before given up, and only the newest delivered.
private final class Reads: Sendable {
    /// A read, given up by setting its flag.
    final class Read: Sendable {
        let givenUp = Atomic<Bool>(false)
        var cancellation: ReadCancellation { ReadCancellation { [self] in givenUp.load(ordering: .relaxed) } }
    }

    struct State {
        /// The newest read; an older one delivers nothing.
        var current: Read?
        /// What the next save's changes are counted from: the last
        /// scenario delivered.
        var last: Scenario
        /// Reloads delivered so far, and the number of the last one that
        /// was a scenario.
        var delivered = 0
        var lastScenario = 0
        var stopped = false
    }

    /// How often a read of a file that changed while it was read is made
    /// again, and how long after.
    static let attempts = 50
    static let pause = 0.1
    /// How often an empty file is read again before it is taken as the
    /// save (a second).
    static let emptyAttempts = 10

    let path: String
    let ownCode: ScenarioReader.OwnCode
    let prepare: (@Sendable (Scenario) -> any Sendable)?
    let deliver: @Sendable (ScenarioWatch.Arrival) -> Void
    let state: Mutex<State>

    init(
        path: String, last: Scenario, ownCode: ScenarioReader.OwnCode,
        prepare: (@Sendable (Scenario) -> any Sendable)?, deliver: @escaping @Sendable (ScenarioWatch.Arrival) -> Void
    ) {
        self.path = path
        self.ownCode = ownCode
        self.prepare = prepare
        self.deliver = deliver
        state = Mutex(State(last: last))
    }

    /// A save (on the file watch's thread): the read going on is given up,
    /// and this one starts.
    func saved() {
        let read = Read()
        let since: Scenario? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.current?.givenUp.store(true, ordering: .relaxed)
            state.current = read
            return state.last
        }
        guard let since else { return }
        let thread = Thread { [self] in self.read(read, since: since) }
        thread.name = "opscope read"
        thread.start()
    }

    private func read(_ read: Read, since: Scenario) {
        for attempt in 0..<Self.attempts {
            if read.givenUp.load(ordering: .relaxed) { return }
            // An empty file is taken only after a second of being empty.
            let acceptsEmpty = attempt >= Self.emptyAttempts
            if let reload = ScenarioWatch.read(
                path, since: since, ownCode: ownCode, unless: read.cancellation, acceptsEmpty: acceptsEmpty)
            {
                var prepared: (any Sendable)?
                if let prepare, case .scenario(let scenario, _, _) = reload {
                    prepared = prepare(scenario)
                    if read.givenUp.load(ordering: .relaxed) { return }
                }
                deliver(reload, prepared: prepared, of: read)
                return
            }
            // Changing while it was read: its writer is still at it.
            if attempt + 1 < Self.attempts { Thread.sleep(forTimeInterval: Self.pause) }
        }
    }

    /// Delivers `reload` if `read` is still the newest, under the lock, so
    /// that no older read's result comes after a newer one's.
    private func deliver(_ reload: ScenarioWatch.Reload, prepared: (any Sendable)?, of read: Read) {
        state.withLock { state in
            guard state.current === read, !state.stopped else { return }
            state.delivered += 1
            let number = state.delivered
            let isScenario: Bool
            if case .scenario(let scenario, _, _) = reload {
                state.last = scenario
                state.lastScenario = number
                isScenario = true
            } else {
                isScenario = false
            }
            deliver(
                ScenarioWatch.Arrival(reload, prepared: prepared) { [self] in
                    self.state.withLock { isScenario ? $0.lastScenario > number : $0.delivered > number }
                })
        }
    }

    func stop() {
        state.withLock { state in
            state.stopped = true
            state.current?.givenUp.store(true, ordering: .relaxed)
        }
    }
}
