import EventFixtures
import RunEvents
import ScenarioKit

/// A small run the history and timeline tests share: on queue `q` (cap
/// `cap`), `a` runs from 0 to 0.4s; `c` is cancelled while it waits and
/// finishes at 0.2s; `b` waits for `a`, then runs from 0.4 to 0.8s.
enum ThreeOperations {
    static func scenario(cap: Int) -> Scenario {
        makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(cap))],
            ops: [op("a", on: "q"), op("b", on: "q", after: ["a"]), op("c", on: "q")])
    }

    static func script(cap: Int) -> Script {
        var s = Script(scenario(cap: cap))
        s.cap("q", cap)
        s.add("a")
        s.add("b", ready: false)
        s.add("c")
        s.start("a", thread: 1)
        s.at(0.2)
        s.skip("c")
        s.at(0.4)
        s.finish("a")
        s.ready("b")
        s.start("b", thread: 1)
        s.at(0.8)
        s.finish("b")
        return s
    }
}
