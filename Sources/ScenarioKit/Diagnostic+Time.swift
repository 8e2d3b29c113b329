import TextKit

/// Messages about how long a run takes in real time.
extension Diagnostic {
    /// An `at` action that a run reaches only after a long real wait
    /// (`Validator.farBeyondAnyRun`): how long at the file's speed and at
    /// the fastest `trace` runs. `holdsTheRun`: an `add`, which the run
    /// waits for whatever else is done.
    public static func farBeyondAnyRun(
        _ action: String, at time: String, realTime: Double, speed: Double, fastest: Double,
        realTimeAtFastest: Double, holdsTheRun: Bool, location: SourceLocation
    ) -> Diagnostic {
        let wait =
            holdsTheRun
            ? "a run does not end before everything was added: it waits for this one"
            : "a run waits for it only while something else still runs or waits; with all done sooner, it ends "
                + "without it"
        return .warning(
            "'\(action)' at \(time) is far beyond any run: reaching it takes \(Spelling.realTime(seconds: realTime)) "
                + "of real time at speed \(ScenarioPrinter.speedText(speed))", at: location,
            notes: [
                wait,
                "at --speed \(ScenarioPrinter.speedText(fastest)) (the fastest trace runs) it takes "
                    + Spelling.realTime(seconds: realTimeAtFastest),
            ])
    }
}
