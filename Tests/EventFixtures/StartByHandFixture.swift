import RunEvents
import ScenarioKit

/// Lesson 33's run, written by hand as the engine announces it: fetch, in
/// no queue, is refused at 100ms (token runs until 400ms), started by the
/// main thread at 600ms (its main() runs there until 900ms), then started
/// again at 1.2s, which does nothing; parse, on net, starts once fetch
/// finished.
public enum StartByHandFixture {
    public static let source = """
        queue net
        op token on net work 400ms
        op fetch work 300ms after token completion
        op parse on net work 500ms after fetch
        at 100ms start fetch
        at 600ms start fetch
        at 1.2s start fetch
        """

    public static let scenario = ScenarioReader.read(source, path: "33.ops").scenario!

    /// The stream, and the number of events up to each moment named.
    public static let script: Script = {
        var s = Script(scenario)
        let fetch = s.id("fetch")
        s.at(0.001)
        s.add("token")
        s.count("net", 1)
        s.at(0.002)
        s.start("token", thread: 1)
        s.add("parse", ready: false)
        s.count("net", 2, old: 1)
        s.at(0.1)
        s.emit(.action(.start(fetch), origin: .timed(0), ignored: .startNotReady))
        s.at(0.4)
        s.finish("token")
        s.count("net", 1, old: 2)
        s.at(0.6)
        s.emit(.action(.start(fetch), origin: .timed(1), ignored: nil))
        s.emit(.startCall(fetch, phase: .started))
        s.emit(.operation(fetch, .isExecuting, old: .bool(false), new: .bool(true)), thread: .main)
        s.at(0.9)
        s.emit(.operation(fetch, .isExecuting, old: .bool(true), new: .bool(false)))
        s.emit(.operation(fetch, .isFinished, old: .bool(false), new: .bool(true)))
        s.ready("parse")
        s.dispatch("parse")
        s.emit(.startCall(fetch, phase: .returned))
        s.at(0.901)
        s.start("parse", thread: 1)
        s.completion("fetch", thread: 2)
        s.at(1.2)
        s.emit(.action(.start(fetch), origin: .timed(2), ignored: nil))
        s.emit(.startCall(fetch, phase: .started))
        s.emit(.startCall(fetch, phase: .returned))
        s.at(1.401)
        s.finish("parse")
        s.count("net", 0, old: 1)
        s.end()
        return s
    }()

    public static var events: [LifecycleEvent] { script.events }

    /// How many events came up to and including the first one `matches`.
    public static func through(_ matches: (LifecycleEvent.Kind) -> Bool) -> Int {
        (events.firstIndex { matches($0.kind) } ?? events.count - 1) + 1
    }

    /// Events up to the refused start, up to token's finish, up to fetch's
    /// start, up to the call's return, up to the second call's return.
    public static var refused: Int { through { if case .action(_, _, .some) = $0 { true } else { false } } }
    public static var tokenFinished: Int {
        through { if case .operation(OperationID(0), .isFinished, _, _) = $0 { true } else { false } }
    }
    public static var fetchStarted: Int {
        through { if case .operation(OperationID(1), .isExecuting, _, .bool(true)) = $0 { true } else { false } }
    }
    public static var firstReturn: Int { through { if case .startCall(_, .returned) = $0 { true } else { false } } }
    public static var secondReturn: Int { events.count - 4 }
}
