import Foundation
import RunFormats
import ScenarioKit
import Testing

/// The lines between a board and the child that runs the user's classes
/// live: each command and report reads back as itself, and a line that
/// names what the scenario does not have, or is no line of theirs, is
/// nothing.
@Suite("the board's lines to a live child, and its answers")
struct LiveRunLineTests {
    static let scenario: Scenario = {
        let text = "queue net max 2\nqueue disk serial\nop a on net work 10ms\nop b on disk work 10ms\n"
        return ScenarioReader.read(SourceFile(path: "t.ops", text: text)).scenario!
    }()

    @Test func everyCommandReadsBackAsItself() {
        let a = OperationID(0)
        let b = OperationID(1)
        let net = QueueID(0)
        let commands: [LiveCommand] = [
            .start, .pause, .resume, .speed(0.25), .speed(4), .lesson(true), .lesson(false),
            .act(1, .cancel(a)), .act(2, .cancelAll(net)), .act(3, .suspend(net)), .act(4, .resume(net)),
            .act(5, .setCap(net, .limit(3))), .act(6, .setCap(net, .systemDefault)),
            .act(7, .setPriority(b, .veryHigh)), .act(8, .add(a)), .act(9, .addBatch([a, b])), .act(10, .wait(b)),
            .act(11, .waitAll(net)), .act(12, .start(a)),
        ]
        for command in commands {
            #expect(LiveCommand(line: command.line[...], scenario: Self.scenario) == command, "\(command.line)")
        }
    }

    @Test func aLineOutsideTheScenarioOrTheLanguageIsNothing() {
        for line in [
            "", "start now", "speed 0", "speed -1", "speed nan", "speed inf", "lesson maybe", "act 0 cancel 0",
            "act 1 cancel 2", "act 1 cancel -1", "act 1 suspend 2", "act 1 cap 0 0", "act 1 cap 0 x",
            "act 1 priority 0 urgent", "act 1 add-batch 0 7", "act 1 add-batch", "act x cancel 0", "act 1 explode 0",
            "act 1 cancel 0 0", "cancel 0",
        ] {
            #expect(LiveCommand(line: line[...], scenario: Self.scenario) == nil, "\(line)")
        }
    }

    @Test func everyReportReadsBackAsItself() {
        let reports: [LiveReport] = [
            .clock(now: 0, paused: true, stalled: false), .clock(now: 12.345678, paused: false, stalled: true),
            .done(1, performed: true), .done(42, performed: false),
        ]
        for report in reports {
            #expect(LiveReport(line: report.line[...]) == report, "\(report.line)")
        }
        for line in [
            "clock 1 0 0", "opscope-live clock -1 0 0", "opscope-live clock nan 0 0", "opscope-live clock 1 2 0",
            "opscope-live done 0 1", "opscope-live done 1", #"{"seq":1}"#, "opscope-live",
        ] {
            #expect(LiveReport(line: line[...]) == nil, "\(line)")
        }
    }
}
