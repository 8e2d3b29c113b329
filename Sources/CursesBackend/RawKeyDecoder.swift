import Screen

/// Keys from the terminal's bytes, for a thread that reads standard input
/// itself while the main thread, which owns ncurses, is lost for good (a
/// wait of the scenario that never returns): printable characters,
/// Enter, Tab, Backspace, Esc, control chords, arrows, Home, End, Page Up
/// and Down. Mouse reports and other sequences are dropped, never read as
/// keys.
public enum RawKeyDecoder {
    public static func keys(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
                else {
                    keys.append(.escape)
                    continue
                }
                let (key, next) = sequence(bytes, from: index + 1)
                if let key { keys.append(key) }
                index = next
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A: keys.append(.ctrl(Character(Unicode.Scalar(byte + 0x60))))
            case 0x20..<0x7F: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                // A UTF-8 sequence: its lead byte says how long.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(bytes.count, index - 1 + length)
                if let text = String(validating: bytes[(index - 1)..<end], as: UTF8.self), let c = text.first {
                    keys.append(.character(c))
                }
                index = end
            default: break
            }
        }
        return keys
    }

    /// A control sequence after `ESC [` (or `ESC O`), from `start`: its key
    /// (nil for one that is no key, a mouse report among them) and where
    /// the next byte is.
    private static func sequence(_ bytes: [UInt8], from start: Int) -> (Key?, Int) {
        var index = start
        // X10 mouse report: `ESC [ M` and three bytes.
        if index < bytes.count, bytes[index] == UInt8(ascii: "M") { return (nil, min(bytes.count, index + 4)) }
        var parameters = ""
        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
            parameters.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        guard index < bytes.count else { return (nil, index) }
        let final = Character(Unicode.Scalar(bytes[index]))
        index += 1
        guard !parameters.hasPrefix("<") else { return (nil, index) }
        switch final {
        case "A": return (.up, index)
        case "B": return (.down, index)
        case "C": return (.right, index)
        case "D": return (.left, index)
        case "H": return (.home, index)
        case "F": return (.end, index)
        case "Z": return (.shiftTab, index)
        case "~":
            switch parameters {
            case "1", "7": return (.home, index)
            case "4", "8": return (.end, index)
            case "3": return (.delete, index)
            case "5": return (.pageUp, index)
            case "6": return (.pageDown, index)
            default: return (nil, index)
            }
        default: return (nil, index)
        }
    }
}
