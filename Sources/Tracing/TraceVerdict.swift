import Grading

/// Whether one run passes, as a trace decides its exit status: the one
/// place that applies the rule to a judged run, for a single trace
/// (`TraceReport`) and for each run of `trace --repeat` (`RepeatSummary`).
package enum TraceVerdict {
    /// `ExpectationChecker.passes` on the judge's facts. With
    /// `countsExpectations` false (traced faster than the file's `speed …
    /// up to` promises), a failed expectation does not fail the run; a run
    /// that did not end, or stalled on an operation no `expect stuck`
    /// names, still does.
    package static func passes(
        _ judge: ExpectationJudge, results: [ExpectationResult], countsExpectations: Bool
    ) -> Bool {
        ExpectationChecker.passes(
            outcome: judge.facts.outcome, results: countsExpectations ? results : [], scenario: judge.scenario)
    }
}
