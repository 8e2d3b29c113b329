import Foundation
import Testing

/// `start` by hand in the real program (lesson 33): the main thread itself
/// runs the operation's main(), a start that Foundation would stop the
/// program on is not made and says why, and the recording, `why` and the
/// chrome export tell the same run.
@Suite("start() by hand")
struct StartByHandTraceTests {
    static let lesson = "scenarios/33-start-by-hand.ops"

    static func index(of pattern: String, in text: String) throws -> String.Index {
        try #require(text.range(of: pattern, options: .regularExpression), "\(pattern) in \(text)").lowerBound
    }

    @Test func traceShowsMainRunningOnTheMainThreadInsideTheCall() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", Self.lesson], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(
            out.contains(
                "not called: not ready (a dependency has not finished): Foundation's start() would stop the program "
                    + "(receiver is not yet ready to execute)"))
        let order = try [
            #"token\s+isFinished\s+false → true"#, #"fetch\.start\(\) called by hand"#,
            #"fetch\s+isExecuting\s+false → true\s+on thread main"#, #"fetch\s+isFinished\s+false → true"#,
            #"fetch\.start\(\) returned"#,
        ].map { try Self.index(of: $0, in: out) }
        #expect(order == order.sorted(), "\(out)")
        let parse = try Self.index(of: #"parse\s+isExecuting\s+false → true"#, in: out)
        #expect(parse > order[3], "parse starts after fetch finished")
        #expect(!out.contains("fetch   dispatched") && !out.contains("(initial: added to its queue)  \n"))
        #expect(out.contains("6 of 6 expectations held"))
    }

    @Test func theRecordingReadsBackAndWhyTellsTheStartByHand() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "jsonl", Self.lesson], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let calls = lines.filter { $0.contains(#""kind":"call""#) }
        #expect(calls.count == 4, "two calls made, each started and returned: \(calls)")
        #expect(
            lines.contains { $0.contains(#""action":"start","target":"fetch","origin":"at","ignored":"not ready"#) })
        #expect(!lines.contains { $0.contains(#""op":"fetch","queue""#) }, "fetch is in no queue")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID()).jsonl").path
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let again = try OpscopeBinary.run(["trace", path], timeout: 30)
        #expect(again.status == 0, "\(again.stderr)")
        let why = try OpscopeBinary.run(["why", path, "parse"], timeout: 30)
        #expect(why.status == 0, "\(why.stderr)")
        #expect(why.stdout.contains("the main thread called fetch.start() by hand for 'at 600ms start fetch'"))
        #expect(why.stdout.contains("fetch ran, started by hand on the main thread, and what follows waited for it"))
    }

    @Test func theChromeExportDrawsItOnTheMainThreadInNoQueue() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "chrome", Self.lesson], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let fetch = try #require(events.first { ($0["ph"] as? String) == "X" && ($0["name"] as? String) == "fetch" })
        let args = try #require(fetch["args"] as? [String: Any])
        #expect(args["started_by_hand"] as? Bool == true)
        #expect(fetch["tid"] as? Int == 1, "on the main thread's track")
    }
}
