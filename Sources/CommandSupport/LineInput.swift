import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lines of standard input read straight from its file descriptor, a
/// byte at a time: unlike `readLine()`, nothing past the line is taken
/// into a buffer of this process, so what was typed or piped ahead is
/// still there for the process that comes next (an opscope that replaces
/// this one, `execv`).
package enum LineInput {
    /// The next line without its newline (a final `\r` dropped too); nil
    /// at the end of input with nothing read. Invalid UTF-8 is repaired.
    package static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : text(bytes) }
            if byte == UInt8(ascii: "\n") { return text(bytes) }
            bytes.append(byte)
        }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var line = bytes[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
