import EventFixtures
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hundreds of random keys, broken escape sequences, invalid UTF-8, clicks
/// and resizes, into the real program in tmux: it stays alive through all of
/// it, and `q` still quits with the terminal restored. The keys are drawn
/// from a fixed seed per scenario, so a failure replays.
@Suite("key mash in tmux", .serialized)
struct KeyMashTests {
    /// Every key the interface binds but the ones that end or stop it
    /// (q, Ctrl-C, Ctrl-\, Ctrl-Z), and some it does not.
    static let keys = [
        "Space", "c", "C", "s", "+", "-", "0", "Tab", "BTab", "n", "L", "l", "h", "j", "k", "f", "m", "r", "w", "?",
        "<", ">", "Up", "Down", "Left", "Right", "PageUp", "PageDown", "Home", "End", "Escape", "Enter", "BSpace",
        "DC", "IC", "F1", "F5", "F12", "C-l", "C-a", "x", "9", "[", "]", "{", "}", "t", "é", "가",
    ]

    /// Bytes a terminal (or line noise) may send: cut escape sequences,
    /// invalid UTF-8, mouse reports in both formats, a wheel.
    static func rawInput(_ rng: inout SplitMix64) -> [UInt8] {
        let column = Int.random(in: 0..<120, using: &rng)
        let row = Int.random(in: 0..<40, using: &rng)
        let choices: [[UInt8]] = [
            [0x1B], [0x1B, 0x5B], [0x1B, 0x5B, 0x3C], [0x1B, 0x4F], [0x1B, 0x5B, 0x31, 0x3B],
            [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x00],
            TmuxSession.x10Click(column: column, row: row),
            TmuxSession.sgrClick(column: column, row: row),
            TmuxSession.sgrClick(column: column, row: row, button: 64 + Int.random(in: 0...1, using: &rng)),
            Array("\u{1B}[<0;99999;99999M".utf8),
        ]
        return choices.randomElement(using: &rng)!
    }

    static let sizes = [(80, 24), (40, 10), (200, 60), (120, 40), (20, 5), (100, 30), (81, 25)]

    @Test(
        "random keys, bytes and resizes never end the program; q still quits and restores the terminal",
        arguments: [
            ("scenarios/07-barrier.ops", 7), ("scenarios/17-hundred-downloads-async.ops", 17),
            ("scenarios/23-suspend-resume.ops", 23), ("scenarios/27-main-queue-freeze.ops", 27),
        ])
    func mash(scenario: String, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let tmux = try TmuxSession(["--speed", "8", scenario])
        try tmux.waitFor(text: "Pending")
        let pid = try tmux.programPID()
        for chunk in 0..<40 {
            var batch: [String] = []
            for _ in 0..<8 { batch.append(Self.keys.randomElement(using: &rng)!) }
            try tmux.sendKeys(batch)
            if Int.random(in: 0..<3, using: &rng) == 0 { try tmux.sendBytes(Self.rawInput(&rng)) }
            if chunk % 8 == 7 {
                let (columns, rows) = Self.sizes.randomElement(using: &rng)!
                try tmux.resize(columns: columns, rows: rows)
            }
            Thread.sleep(forTimeInterval: 0.05)
            #expect(kill(pid, 0) == 0, "opscope ended during chunk \(chunk) (seed \(seed))")
        }
        try tmux.resize(columns: 120, rows: 40)
        // Close whatever is open, then quit: q closes an overlay first.
        try tmux.send("Escape")
        Thread.sleep(forTimeInterval: 0.2)
        var tries = 0
        while kill(pid, 0) == 0 && tries < 5 {
            try tmux.send("q")
            tries += 1
            Thread.sleep(forTimeInterval: 1)
        }
        let text = try tmux.waitFor(text: "[exit ", timeout: 30)
        #expect(text.contains("[exit 0]"), "seed \(seed)")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
