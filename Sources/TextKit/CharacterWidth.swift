/// Display widths of text in terminal cells, the way wcwidth(3) of a recent
/// glibc counts them, so that the grid and the terminal agree on where each
/// character lands:
/// - East Asian Wide and Fullwidth characters (CJK, Hangul syllables and
///   Jamo leads, kana, fullwidth forms) and emoji with default emoji
///   presentation take 2 cells;
/// - combining marks, format characters and variation selectors take 0 (they
///   ride on the previous character);
/// - everything else takes 1. Control characters have no width; the grid
///   replaces them (see `CellGrid.write`).
///
/// A grapheme cluster takes the width of its first scalar, as a terminal
/// writing it scalar by scalar would. Emoji sequences that terminals render
/// differently (text-presentation base + U+FE0F) therefore count as 1, like
/// wcwidth does; ncurses counts with wcwidth, and a disagreement would shift
/// the rest of the row.
public enum CharacterWidth {
    /// Width in cells of one scalar: 0, 1 or 2; `nil` for a control
    /// character (`TerminalText.isControl`: the bidi controls too).
    public static func of(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) || TerminalText.isControl(scalar) { return nil }
        if v < 0x300 { return 1 }  // fast path: Latin-1 and friends.
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(v) { return 0 }  // Hangul medial vowels, final consonants
        if scalar.properties.isEmojiPresentation { return 2 }
        if isEastAsianWide(v) { return 2 }
        return 1
    }

    /// Width in cells of a grapheme cluster; `nil` when it starts with a
    /// control character.
    public static func of(_ character: Character) -> Int? {
        guard let first = character.unicodeScalars.first else { return 0 }
        return of(first)
    }

    /// Whether a code point is East Asian Wide (W) or Fullwidth (F).
    /// The ranges are the blocks wcwidth treats as wide; precise enough for
    /// names in scenario files.
    static func isEastAsianWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x2E80...0x303E,  // CJK radicals, punctuation
            0x3041...0x33FF,  // kana, bopomofo, CJK compat
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical and small forms
            0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
            0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs, emoticons
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B…
            return true
        default:
            return false
        }
    }
}

/// Width of `string` in terminal cells, as `CellGrid.write` would lay it out
/// (control characters count as one cell each, since they are replaced by a
/// visible one-cell character).
public func displayWidth(_ string: String) -> Int {
    var total = 0
    for ch in string { total += CharacterWidth.of(ch) ?? 1 }
    return total
}

/// `string` shortened to at most `width` cells. If it must be cut, the end is
/// replaced by `ellipsis` (`…`, or `...` in ASCII mode, see `GlyphSet`); a
/// wide character that would straddle the limit is dropped, so the result may
/// be one cell narrower than `width`. When even the ellipsis does not fit,
/// the text is cut hard with no ellipsis. Never negative: `width <= 0` gives "".
public func truncate(_ string: String, toWidth width: Int, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    if displayWidth(string) <= width { return string }
    let ellipsisWidth = displayWidth(ellipsis)
    let room = ellipsisWidth <= width ? width - ellipsisWidth : width
    var result = ""
    var used = 0
    for ch in string {
        let w = CharacterWidth.of(ch) ?? 1
        if used + w > room { break }
        result.append(ch)
        used += w
    }
    return ellipsisWidth <= width ? result + ellipsis : result
}
