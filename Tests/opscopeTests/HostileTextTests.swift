import Foundation
import Testing

/// Text that came from a file never reaches the terminal raw: every
/// command and output format, on files whose every string field (title,
/// notes, captions, the quiz's question, a comment, the file's own name, a
/// recording's path, a line with an error, bytes that are not UTF-8) holds
/// every control character a terminal acts on. What a command writes is
/// read back as bytes: no C0 control but newline and tab, no DEL, no C1
/// control, no bidi control, no line or paragraph separator, and no line
/// a file's newline forged.
@Suite("no control character from a file reaches the terminal")
struct HostileTextTests {
    /// Every character a terminal acts on that a scenario's string can
    /// hold (a string ends at a newline; NUL becomes U+FFFD).
    static let controls: String = {
        var scalars = String.UnicodeScalarView()
        for value in Array(0x01...0x1F).filter({ $0 != 0x0A }) + [0x7F] + Array(0x80...0x9F) + Array(0x202A...0x202E)
            + Array(0x2066...0x2069) + [0x2028, 0x2029]
        {
            scalars.append(Unicode.Scalar(UInt32(value))!)
        }
        return "\u{1B}]0;PWNED\u{07}\u{1B}[2J" + String(scalars)
    }()

    static let scenario = """
        title "T\(controls)"
        note "N\(controls)"
        queue q max 2
        op a work 50ms
        op b work 50ms after a completion
        at 10ms say "C\(controls)"
        when b starts say "W\(controls)"
        expect a before b
        # a comment \(controls)
        quiz "Q\(controls)" answer start-order

        """

    /// The files, in a scratch folder: the hostile scenario under a plain
    /// name and under a hostile one, a file with errors on a hostile line,
    /// one that is not UTF-8, and a recording whose header's path forges a
    /// line.
    struct Files {
        let scratch: ScratchFiles
        let plain: String
        let evil: String
        let broken: String
        let notUTF8: String
        let recording: String

        init() throws {
            scratch = try ScratchFiles()
            plain = try scratch.write("plain.ops", HostileTextTests.scenario)
            evil = try scratch.write("evil\u{1B}[31m\u{202E}\u{9B}\nforged.ops", HostileTextTests.scenario)
            broken = try scratch.write(
                "broken.ops", HostileTextTests.scenario + "op c work 1ms after zz\(HostileTextTests.controls)\n")
            notUTF8 = scratch.directory.appendingPathComponent("bytes.ops").path
            try Data(Array("queue q\nop a work 1ms after x".utf8) + [0xFF, 0xFE, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x0A])
                .write(to: URL(fileURLWithPath: notUTF8))
            let trace = try OpscopeBinary.run(["trace", "--format", "jsonl", plain])
            guard var header = trace.stdout.split(separator: "\n").first.map(String.init),
                let range = header.range(of: #""path":"[^"]*""#, options: .regularExpression)
            else { throw TmuxSession.Failure(description: "no recording: \(trace.stderr)") }
            header.replaceSubrange(range, with: #""path":"x\u001b]0;PWNED\u0007\nforged\r\u0000\u202e\u009b""#)
            let rest = trace.stdout.split(separator: "\n").dropFirst().joined(separator: "\n")
            recording = try scratch.write("run.jsonl", header + "\n" + rest + "\n")
        }
    }

    /// The commands, each with the files it reads.
    static func commands(_ f: Files) -> [[String]] {
        var commands: [[String]] = []
        for file in [f.plain, f.evil, f.recording] {
            for format in ["text", "jsonl", "chrome", "timeline", "dot", "mermaid"] {
                commands.append(["trace", "--format", format, file])
            }
            commands += [
                ["trace", "--repeat", "2", file], ["trace", "--repeat", "2", "--format", "json", file],
                ["why", file, "b"], ["swift", file], ["check", file],
            ]
        }
        commands += [
            ["check", f.broken, f.notUTF8, f.evil], ["trace", f.broken], ["swift", f.notUTF8],
            ["list", f.scratch.directory.path], ["quiz", f.plain, "--answer", "a, b"],
            ["quiz", f.evil, "--answer", "b, a"], ["quiz", f.recording, "--answer", "a, b"],
            ["diff", f.plain, f.recording], ["diff", "--format", "json", f.recording, f.evil],
            ["why", f.recording, "a", "b"], ["quiz", f.evil, "--answer", "zz"], ["trace", f.evil + "missing"],
        ]
        return commands
    }

    /// The first byte (or UTF-8 sequence) of `bytes` a terminal would act
    /// on, with its offset: C0 but newline and tab, DEL, C1, the bidi and
    /// line-breaking controls.
    static func firstControl(_ bytes: [UInt8]) -> (offset: Int, what: String)? {
        for (i, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F {
                return (i, String(format: "0x%02X", byte))
            }
            guard i + 1 < bytes.count else { continue }
            if byte == 0xC2, (0x80...0x9F).contains(bytes[i + 1]) {
                return (i, "C1 0x\(String(bytes[i + 1], radix: 16))")
            }
            guard i + 2 < bytes.count, byte == 0xE2 else { continue }
            switch (bytes[i + 1], bytes[i + 2]) {
            case (0x80, 0xA8...0xAE), (0x81, 0xA6...0xA9): return (i, "U+20.. bidi or separator")
            default: continue
            }
        }
        return nil
    }

    @Test("every command and format, on every hostile file")
    func everyCommand() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        for command in Self.commands(files) {
            let result = try OpscopeBinary.run(command, timeout: 60)
            #expect(result.status != 3 && result.status < 128, "\(command): status \(result.status)")
            for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                let bytes = Array(text.utf8)
                if let (offset, what) = Self.firstControl(bytes) {
                    let around = String(
                        decoding: bytes[max(0, offset - 40)..<min(bytes.count, offset + 20)], as: UTF8.self)
                    Issue.record("\(command) \(stream): \(what) at \(offset): …\(around.debugDescription)…")
                }
                #expect(
                    !text.split(separator: "\n").contains { $0.hasPrefix("forged") },
                    "\(command) \(stream): a newline from a file forged a line")
            }
        }
    }

    @Test("the interface, live and in a replay, draws a hostile file without its controls")
    func theInterface() throws {
        let files = try Files()
        defer { files.scratch.remove() }
        for arguments in [[files.evil], ["replay", files.recording], [files.scratch.directory.path + "/broken.ops"]] {
            let tmux = try TmuxSession(arguments, columns: 100, rows: 30, startDelay: 1)
            let record = try tmux.recordOutput()
            defer { try? FileManager.default.removeItem(at: record) }
            try tmux.waitFor("the screen") { $0.contains("opscope") || $0.contains("error") }
            for key in ["Space", "n", "w", "Escape", "L", "t", "t", "t"] {
                try tmux.send(key)
                Thread.sleep(forTimeInterval: 0.2)
            }
            try tmux.send("q")
            try tmux.waitFor(text: "[exit ")
            let drawn = try Data(contentsOf: record)
            // The screen is curses': its own sequences are fine; the file's never show.
            for payload in ["\u{1B}]0;PWNED", "\u{07}", "\u{202E}", "\u{2066}", "\u{9B}", "\u{2028}", "\u{7F}"] {
                #expect(
                    drawn.range(of: Data(payload.utf8)) == nil,
                    "\(arguments): the file's \(payload.debugDescription) reached the terminal")
            }
        }
    }
}
