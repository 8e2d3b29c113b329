/// What a stop does to Foundation's objects, decided from the model alone:
/// the shell (`RunCore.stop`) carries the steps out in order, and only
/// reads Foundation where a step says so (an operation already cancelled
/// needs no second cancel; a gate opens only when it is still ready and
/// unfinished).
///
/// In order: every queue but the main one cancels all it holds; each
/// synchronous operation (or one of the user's own class) cancel-all did
/// not reach (the main queue's, and those made but never added) is
/// cancelled; each asynchronous one is
/// cancelled and, if it is still executing, let go of (it will never post
/// its finish now); the queues are resumed, so that what a suspension
/// held can finish as cancelled; the gates of barriers that never ran are
/// opened. Nothing is released here (`ReleaseWatch` says when).
struct StopPlan: Equatable {
    enum Step: Equatable {
        case cancelAll(queue: Int)
        case cancel(operation: Int)
        case letGo(asyncOperation: Int)
        case resume(queue: Int)
        case openGate(operation: Int)
    }

    var steps: [Step]

    /// The plan for queues of which `isMain` says which one is the main
    /// queue, operations of `kinds`, and the barriers whose gates the model
    /// handed over (`RunModel.stopped`).
    init(isMain: [Bool], kinds: [RunModel.Kind], gates: [Int]) {
        let own = isMain.indices.filter { !isMain[$0] }
        steps = own.map { .cancelAll(queue: $0) }
        steps += kinds.indices.filter { kinds[$0] != .async }.map { .cancel(operation: $0) }
        steps += kinds.indices.filter { kinds[$0] == .async }.map { .letGo(asyncOperation: $0) }
        steps += own.map { .resume(queue: $0) }
        steps += gates.map { .openGate(operation: $0) }
    }
}

/// When a stopped run may let go of its Foundation objects: once
/// Foundation has processed every operation it was given (`left` is 0)
/// and, for operations of the main queue, once the main thread has run a
/// block after them. Foundation keeps unretained pointers from each
/// dependency to its dependents, so an object freed while a dependency can
/// still finish would be used after it was freed.
///
/// The shell looks every `interval`; a run in which nothing is processed
/// for `patience` looks in a row (an operation that never finishes holds
/// its queue) keeps its objects for good.
struct ReleaseWatch: Equatable {
    static let intervalMilliseconds = 50
    static let patience = 200

    enum Next: Equatable {
        /// Release now.
        case release
        /// Release once the main queue ran a block after what it holds.
        case releaseAfterTheMainQueue
        /// Look again after `intervalMilliseconds`.
        case lookAgain
        /// Nothing moved for `patience` looks: keep everything.
        case keepForGood
    }

    /// The fewest operations seen left so far.
    private(set) var fewestLeft = Int.max
    /// Looks in a row that saw no fewer left.
    private(set) var idle = 0

    /// One look: `left` operations Foundation still has to process, and
    /// whether the main queue was given any.
    mutating func look(left: Int, mainQueueWasGivenOperations: Bool) -> Next {
        guard left == 0 else {
            idle = left < fewestLeft ? 0 : idle + 1
            fewestLeft = min(fewestLeft, left)
            return idle < Self.patience ? .lookAgain : .keepForGood
        }
        return mainQueueWasGivenOperations ? .releaseAfterTheMainQueue : .release
    }
}
