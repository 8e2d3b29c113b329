/// The rules this Foundation's `OperationQueue` follows, each stated once,
/// as small values and pure functions, free of Foundation itself.
///
/// Every module that models, draws, checks or explains a run asks these:
/// the engine's model (which ready operation a queue dispatches next), the
/// board (the bucket a card sits in), the run facts and the expectation
/// checker (the rule a failure names), the quiz explainer, and Practice
/// (the order a generated question's answer is fixed by). A rule that
/// changes is changed here, and its tests (FoundationRulesTests) and its
/// probe change with it.
///
/// Each rule names the plain-Foundation probe that pins it: a fact of
/// `.ci/probes/dispatch-facts.swift`, run by `.ci/run` many times, whose
/// outcomes must all be the one `.ci/probes/expected` keeps for it. The
/// rules, and their probes:
///
/// | rule | what it says | probe |
/// |---|---|---|
/// | `PriorityRule.filing` | the bucket an add files an operation under | `batch`, `onebyone`, `qosserial`, `qosqueue` |
/// | `PriorityRule.change` | what setting `queuePriority` moves | `prioback`, `prioqos` |
/// | `DispatchBucket`, `DispatchRule.precedes` | the order a queue dispatches its ready operations in | `batch`, `batchbusy`, `serial`, `mainq` |
/// | `CapRule` | what a cap is and what it counts | `ramp`, `capraise`, `lower`, `suspend` |
/// | `DispatchRule.mayDispatch` | when a queue hands out one more | `ramp`, `suspend`, `cancelwaiting` |
/// | `OperationLife` | the steps of an operation's life, and the impossible ones | `barriercancel`, `cancelwaiting`; traps `start-cancelled`, `start-twice` |
/// | `BarrierRule` (ScenarioKit, on these buckets) | what a barrier waits for | `barrier`, `barriercancel` |
public enum FoundationRules {}
