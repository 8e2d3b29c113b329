/// The one way text that came from a file (a scenario's or a recording's
/// path, names, title, notes, captions, source lines, the bytes around an
/// encoding error) is written for a terminal: every character that a
/// terminal would act on rather than show is shown as a visible escape,
/// never emitted. Those are the C0 controls (with newline and tab: a name
/// with a newline would forge a line of the report), DEL, the C1 controls
/// (U+0080–U+009F, which a terminal may take for ESC sequences), the bidi
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: they
/// reorder what follows on the line) and the line and paragraph
/// separators (U+2028, U+2029). Everything else, any script, emoji, is
/// kept as it is.
///
/// The escapes read as Swift's: `\n`, `\r`, `\t`, `\0`, else `\u{1B}`;
/// invalid UTF-8 shows its bytes as `\xFF`. JSON outputs keep JSON's own
/// escaping (`JSONBytes`), which escapes the same characters.
public enum TerminalText {
    /// `text` with every character a terminal would act on escaped.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Bytes that should be UTF-8, escaped as `escaped` does, each byte
    /// that starts no valid sequence shown as `\xNN`.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out = ""
        var i = 0
        while i < bytes.count {
            guard let (scalar, length) = scalar(at: i, in: bytes) else {
                out += "\\x" + hex(bytes[i])
                i += 1
                continue
            }
            if isControl(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
            i += length
        }
        return out
    }

    /// The well-formed UTF-8 sequence at `i` (no overlong form, no
    /// surrogate, nothing above U+10FFFF), if one starts there.
    private static func scalar(at i: Int, in bytes: [UInt8]) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let (length, initial, low): (Int, UInt32, UInt32)
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, initial, low) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, initial, low) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, initial, low) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        var value = initial
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= low, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// A whole text made for a terminal (a report, a table, a program) in
    /// which only newlines and tabs may stay: any other control character,
    /// wherever it came from, is escaped. The safety net of the plain-text
    /// outputs; a path or another string that may hold a newline is
    /// `escaped` where it is put in the text, so that it cannot forge a line.
    public static func plainLines(_ text: String) -> String {
        let kept = { (scalar: Unicode.Scalar) in scalar == "\n" || scalar == "\t" }
        guard text.unicodeScalars.contains(where: { isControl($0) && !kept($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !kept(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case "\0": "\\0"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
