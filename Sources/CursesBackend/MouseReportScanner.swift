import CNCurses

/// One result of `wget_wch`: its status (`OK`, `KEY_CODE_YES`) and code.
public struct RawInput: Hashable, Sendable {
    public var status: Int32
    public var code: UInt32

    public init(status: Int32, code: UInt32) {
        self.status = status
        self.code = code
    }

    /// A character, as `wget_wch` returns one with `OK`.
    public static func character(_ code: UInt32) -> RawInput { RawInput(status: OK, code: code) }
}

/// Finds the xterm mouse reports that reach the program as plain
/// characters, and takes them out of the key stream.
///
/// ncurses decodes a report only in the one format terminfo names (`kmous`:
/// `\E[M` X10 for tmux-256color and screen, `\E[<` SGR for
/// xterm-256color). A report in the other format falls through as
/// characters: an SGR click under TERM=tmux-256color (the terminal was
/// left in SGR mode by another program) arrives as Esc `[` `<` `0` `;` …
/// `m`, which the key table reads as Esc, `<` (slower), `0` (default cap)
/// and "unknown key m"; so does a report that a slow link split across
/// the escape delay. This scanner recognises both formats, whatever the
/// terminal type, so that no mouse report ever acts as keys:
///
/// - SGR (1006): `ESC [ < b ; x ; y M` (press) or `… m` (release), numbers
///   in decimal, x and y 1-based;
/// - X10 (1000): `ESC [ M` and three characters, each 32 + b, x, y;
/// - the SGR tail `[ < b ; x ; y M|m` without its `ESC`, when ncurses gave
///   up waiting and already returned the `ESC` as the Esc key.
///
/// Characters that turn out not to be a report come out unchanged and in
/// order. Pure: feed it what `wget_wch` returned, get back what to decode.
public struct MouseReportScanner: Sendable {
    /// What comes out: input to decode as a key, or a mouse report.
    public enum Item: Hashable, Sendable {
        case input(RawInput)
        case mouse(MouseReport)
    }

    /// Characters that may be the start of a report, oldest first.
    private var held: [UInt32] = []

    public init() {}

    /// Whether characters are held as the possible start of a report.
    public var isHolding: Bool { !held.isEmpty }

    /// Takes one result of `wget_wch`; returns what is now known not to be
    /// (or to complete) a report, in order. A function key ends any report.
    public mutating func feed(_ input: RawInput) -> [Item] {
        guard input.status == OK else {
            let flushed = held.map { Item.input(.character($0)) }
            held = []
            return flushed + [.input(input)]
        }
        held.append(input.code)
        return settle()
    }

    /// No more input for now (`wget_wch` returned ERR). A lone Esc (or `[`)
    /// comes out: ncurses already waited the escape delay for what follows,
    /// and the Esc key must act at once. A longer start of a report is kept
    /// for the next read, where the rest of a split report arrives.
    public mutating func endOfInput() -> [Item] {
        guard held.count == 1 else { return [] }
        let flushed = held.map { Item.input(.character($0)) }
        held = []
        return flushed
    }

    private mutating func settle() -> [Item] {
        var out: [Item] = []
        while !held.isEmpty {
            switch Self.match(held) {
            case .prefix:
                return out
            case .report(let report):
                held = []
                out.append(.mouse(report))
                return out
            case .no:
                out.append(.input(.character(held.removeFirst())))
            }
        }
        return out
    }

    enum Match: Equatable {
        /// Could still become a report.
        case prefix
        /// A whole report, ending at the last character.
        case report(MouseReport)
        /// Not the start of a report.
        case no
    }

    private static let escape: UInt32 = 27
    private static let bracket = UInt32(UInt8(ascii: "["))
    private static let less = UInt32(UInt8(ascii: "<"))
    private static let semicolon = UInt32(UInt8(ascii: ";"))
    private static let upperM = UInt32(UInt8(ascii: "M"))
    private static let lowerM = UInt32(UInt8(ascii: "m"))
    private static let zero = UInt32(UInt8(ascii: "0"))
    /// Digits allowed in one SGR number (terminals are at most a few
    /// thousand cells wide).
    private static let maxDigits = 5

    static func match(_ codes: [UInt32]) -> Match {
        var i: Int
        if codes[0] == escape {
            guard codes.count > 1 else { return .prefix }
            guard codes[1] == bracket else { return .no }
            i = 2
        } else if codes[0] == bracket {
            i = 1
        } else {
            return .no
        }
        let escaped = codes[0] == escape
        guard codes.count > i else { return .prefix }
        if escaped && codes[i] == upperM {
            let bytes = Array(codes[(i + 1)...])
            guard bytes.allSatisfy({ $0 >= 32 }) else { return .no }
            guard bytes.count == 3 else { return .prefix }
            let (b, x, y) = (Int(bytes[0]) - 32, Int(bytes[1]) - 33, Int(bytes[2]) - 33)
            return .report(MouseReport(column: x, row: y, xtermButton: b, released: false))
        }
        guard codes[i] == less else { return .no }
        i += 1
        var numbers = [0]
        var digits = 0
        while i < codes.count {
            let c = codes[i]
            if c >= zero && c <= zero + 9 {
                digits += 1
                guard digits <= maxDigits else { return .no }
                numbers[numbers.count - 1] = numbers[numbers.count - 1] * 10 + Int(c - zero)
            } else if c == semicolon {
                guard digits > 0, numbers.count < 3 else { return .no }
                numbers.append(0)
                digits = 0
            } else if c == upperM || c == lowerM {
                guard digits > 0, numbers.count == 3, i == codes.count - 1 else { return .no }
                return .report(
                    MouseReport(
                        column: numbers[1] - 1, row: numbers[2] - 1, xtermButton: numbers[0], released: c == lowerM))
            } else {
                return .no
            }
            i += 1
        }
        return .prefix
    }
}
