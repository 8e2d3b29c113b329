import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

@testable import Board

/// The text timeline of two library runs, pinned: recordings of real runs
/// of 01-chain and 03-cancel (made with `opscope trace --format jsonl`),
/// read back and drawn at 78 columns.
@Suite struct RecordedTimelineTests {
    static func timeline(_ name: String, width: Int = 78) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Recordings/\(name).jsonl")
        let bytes = Array(try Data(contentsOf: url))
        let recording = try RecordingDecoder.decode(bytes)
        #expect(recording.problem == nil)
        return TimelineText.render(TimelineLanes(scenario: recording.scenario, events: recording.events), width: width)
    }

    @Test func theChain() throws {
        #expect(try Self.timeline("01-chain") == Self.chain + "\n")
    }

    @Test func theCancels() throws {
        #expect(try Self.timeline("03-cancel") == Self.cancels + "\n")
    }

    static let chain = """
        timeline · 0s to 1.101s · one column = 16ms
                   0s          0.2s        0.4s         0.6s        0.8s        1s
                   ├───────────┼───────────┼────────────┼───────────┼───────────┼─────
        net (cap: system decides)
          running  1111111111111111111111111111111111111111111111111111111111111111111
          fetch    ████████████████████████████████████✓
          parse    ····································██████████████████✓
          save     ······················································████████████✓
        marks      ▲                                   ▲                             ▲
          ▲ 0.000s  “fetch runs alone: parse waits in Pending for fetch, and save wai…
          ▲ 0.600s  “fetch has finished: parse turns Ready and starts; save still wai…
          ▲ 1.101s  “save has finished: its completion block runs now, after the fini…
        · pending  ░ ready  █ executing  ✓ finished  ⊘ finished cancelled
        """

    static let cancels = """
        timeline · 0s to 0.805s · one column = 12ms
                     0s              0.2s            0.4s            0.6s
                     ├───────────────┼───────────────┼───────────────┼────────────────
        serial-q (cap 1)
          running    11111111111111111111111111111111111111111111111111111111111111111
          first      ████████████████████████████████████████████████✓
          skipped    ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░⊘
          dependent  ················································████████████████✓
        workers (cap 2)
          running    22222222222222222222222221111111111111111111111111111111111111111
          polite     ████████████████████████⊘
          stubborn   ████████████████████████████████████████████████████████████████⊘
        marks                        ▲       ▲                       ▲               ▲
          ▲ 0.200s  cancel skipped (at 200ms, line 17)
          ▲ 0.200s  “skipped is cancelled while it waits behind first: it will finish…
          ▲ 0.300s  cancel polite (at 300ms, line 18)
          ▲ 0.300s  cancel stubborn (at 300ms, line 19)
          ▲ 0.300s  “polite and stubborn are cancelled while they run: polite checks …
          ▲ 0.605s  “skipped finishes without running, and dependent starts: a cancel…
          ▲ 0.805s  “stubborn ran its full 800ms and still ends cancelled: the flag s…
        · pending  ░ ready  █ executing  ✓ finished  ⊘ finished cancelled
        """
}
