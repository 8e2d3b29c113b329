import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    /// How long the main thread looks again, at most, for Foundation to
    /// process the finish that made an operation ready by the run's count
    /// (a millisecond at a time): a finish is processed within microseconds
    /// of its announcement, so this is only ever reached if it never is.
    static let readinessPatience = 1_000

    /// On the main thread: the `start` an `at` line asked of it. The
    /// operation's object is made if it was not (with those it depends on,
    /// which Foundation is told of now: `addDependency` of one already
    /// finished counts for nothing, as it would have come to). Then the run
    /// looks at it and Foundation's `isReady`, and the call is made, or
    /// refused with why (`RunModel.handStartTaken`). A synchronous
    /// operation's `main()` runs inside the call, on this thread, which
    /// does nothing else until it returns.
    func mainThreadStarts(_ i: Int, origin: ActionOrigin) {
        let made = makeMissing(CollectionOfOne(Int32(i)))
        let (operation, dependencies) = withLockedModel { model -> (Operation?, [Operation]) in
            keepMade(made)
            let dependencies = model.facts.graph.dependencies(of: i).compactMap { objects.operation(Int($0)) }
            return (objects.operation(i), dependencies)
        }
        if let operation {
            for dependency in dependencies { operation.addDependency(dependency) }
        }
        var looks = 0
        while true {
            // Read before the lock: Foundation's getter takes the operation's
            // own lock, and readiness only ever goes from false to true.
            let ready = operation.map(\.isReady)
            let decision = withModel { model, real in
                model.handStartTaken(
                    i, origin: origin, foundationReady: ready, giveUp: looks >= Self.readinessPatience, real: real)
            }
            switch decision {
            case .none, .refused:
                return
            case .notYet:
                looks += 1
                Thread.sleep(forTimeInterval: 0.001)
            case .call:
                operation?.start()
                withModel { model, real in model.handStartReturned(i, real: real) }
                return
            }
        }
    }
}
