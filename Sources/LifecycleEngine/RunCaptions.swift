import RunEvents
import ScenarioKit

/// The captions a run announces, and where it is in them: the `when`
/// captions by the operation whose moment they wait for, the `at` captions
/// in the order the run reaches them, and whether a caption pauses
/// scenario time (lesson mode). Which captions there are is fixed when the
/// run is made; only the next `at` caption moves, and only forward.
struct RunCaptions {
    /// `when` captions by operation index: the moment and the caption's
    /// index, in file order. Empty when the scenario has none (the hot
    /// path then skips: `hasWhen`).
    private let whens: [Int: [(moment: CaptionMoment, caption: Int)]]
    /// `at` captions (indices into `scenario.captions`) and their scenario
    /// time, in the order the run reaches them: by time, then file order.
    private let timed: [(caption: Int, due: Double)]
    /// The next of `timed` to come.
    private(set) var nextTimed = 0
    /// Lesson mode: a caption pauses scenario time.
    var pausesAtCaptions: Bool

    /// The captions of `scenario`. `observesDispatches`: the run reads the
    /// moment of each dispatch; when it does not, the captions that speak
    /// of one are left out: they would say what the board cannot show.
    init(_ scenario: Scenario, observesDispatches: Bool, pausesAtCaptions: Bool) {
        var whens: [Int: [(moment: CaptionMoment, caption: Int)]] = [:]
        var timed: [(caption: Int, time: Duration)] = []
        for (index, caption) in scenario.captions.enumerated()
        where observesDispatches || !caption.claimsDispatches {
            switch caption.trigger {
            case .when(let op, let moment): whens[op.index, default: []].append((moment, index))
            case .at(let time): timed.append((index, time))
            }
        }
        self.whens = whens
        self.timed = timed.sorted { $0.time != $1.time ? $0.time < $1.time : $0.caption < $1.caption }
            .map { ($0.caption, $0.time.seconds) }
        self.pausesAtCaptions = pausesAtCaptions
    }

    /// Whether any operation has a `when` caption.
    var hasWhen: Bool { !whens.isEmpty }

    /// The `when` captions of operation `i` whose moment `key` becoming
    /// true is, in file order.
    func captions(of i: Int, becoming key: OperationKey) -> [Int] {
        guard let entries = whens[i] else { return [] }
        let moment: CaptionMoment
        switch key {
        case .isReady: moment = .ready
        case .isExecuting: moment = .starts
        case .isFinished: moment = .finishes
        case .isCancelled: moment = .cancelled
        case .queuePriority: return []
        }
        return entries.filter { $0.moment == moment }.map(\.caption)
    }

    /// The next `at` caption and its scenario time, nil when none is left.
    var nextTimedCaption: (caption: Int, due: Double)? { nextTimed < timed.count ? timed[nextTimed] : nil }

    /// The next `at` caption is taken off the schedule (announced now).
    mutating func takeTimed() {
        if nextTimed < timed.count { nextTimed += 1 }
    }
}
