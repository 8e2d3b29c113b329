/// "Did you mean …?": the nearest word by edit distance. The one
/// suggester of the project: diagnostics, the quiz's answers, the command line.
///
/// The rule, for every entry point: distance is optimal string alignment
/// (insertions, deletions, substitutions and swaps of two neighbours each
/// cost 1), counted in Unicode scalars. Allowed: 1 edit for words of up to
/// 4 scalars, 2 up to 8, 3 beyond, and never as many edits as the word has
/// scalars (so `a` does not suggest `b`). Ties go to the earlier candidate,
/// which is the one declared first. `ignoringCase` compares lower-cased
/// words (and still answers the candidate as written).
///
/// Every comparison is bounded: candidates whose length is further off
/// than the allowance are skipped, and the distance is computed in a band
/// of that width around the diagonal, abandoned as soon as a whole row
/// exceeds the best distance still worth finding. A comparison costs at
/// most (2k+1)·n steps for an allowance k ≤ 3, whatever the lengths.
public enum Suggestion {
    /// `did you mean 'fetch'?`: the one spelling of a suggestion, as a
    /// diagnostic's note.
    public static func didYouMean(_ suggestion: String) -> String { "did you mean '\(suggestion)'?" }

    /// ` (did you mean 'fetch'?)` after a message, or "" without a suggestion.
    public static func hint(_ suggestion: String?) -> String {
        suggestion.map { " (\(didYouMean($0)))" } ?? ""
    }

    /// The candidate nearest to `word`, or nil when none is close enough.
    /// For a few candidates (keywords); for many, build a `SuggestionIndex` once.
    public static func nearest(
        to word: String, in candidates: some Sequence<String>, ignoringCase: Bool = false
    ) -> String? {
        let fold = { (text: String) in ignoringCase ? text.lowercased() : text }
        let source = Array(fold(word).unicodeScalars)
        let limit = allowance(forLength: source.count)
        guard limit > 0 else { return nil }
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != word {
            // A later candidate must be strictly nearer to win a tie.
            let bound = best.map { $0.distance - 1 } ?? limit
            if bound < 0 { break }
            let target = Array(fold(candidate).unicodeScalars)
            if let d = distance(source, target, atMost: bound) { best = (candidate, d) }
        }
        return best?.word
    }

    /// The most edits a suggestion for a word of `length` scalars may be away.
    static func allowance(forLength length: Int) -> Int {
        min(length <= 4 ? 1 : length <= 8 ? 2 : 3, max(length - 1, 0))
    }

    /// Optimal string alignment distance between two scalar arrays.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        distance(a, b, atMost: max(a.count, b.count))!
    }

    /// The optimal string alignment distance of `a` and `b` when it is at
    /// most `bound`, else nil. Only cells within `bound` of the diagonal
    /// can hold a value ≤ `bound`, so only those are computed. Values never
    /// decrease along a path through the table (a swap, the one step that
    /// skips a row, costs no less than the cell it skips), and every path
    /// to the answer crosses every row: a row whose every cell exceeds
    /// `bound` ends the search.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        let n = a.count
        let m = b.count
        guard bound >= 0, abs(n - m) <= bound else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let outside = bound + 1
        var previous2 = [Int](repeating: outside, count: m + 1)
        var previous = [Int](repeating: outside, count: m + 1)
        var current = [Int](repeating: outside, count: m + 1)
        for j in 0...min(m, bound) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - bound)
            let high = min(m, i + bound)
            current[0] = i <= bound ? i : outside
            // The cell left of the band is read by this row's first cell.
            if low > 1 { current[low - 1] = outside }
            var rowMinimum = low == 1 ? current[0] : outside
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        value = min(value, previous2[j - 2] + 1)
                    }
                    value = min(value, outside)
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
            }
            // The cell right of the band is read by the next row.
            if high < m { current[high + 1] = outside }
            if rowMinimum > bound { return nil }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        return previous[m] <= bound ? previous[m] : nil
    }
}

/// Many candidates (every declared operation of a file), prepared once:
/// folded to scalars and grouped by length, so one lookup compares a word
/// only with candidates of a length within its allowance, each through
/// the bounded distance. The answer is the one `Suggestion.nearest` gives
/// for the same candidates in the same order.
public struct SuggestionIndex: Sendable {
    private let candidates: [String]
    private let folded: [[Unicode.Scalar]]
    /// Scalar length → indices of the candidates of that length, in order.
    private let byLength: [Int: [Int]]
    private let ignoringCase: Bool

    public init(_ candidates: [String], ignoringCase: Bool = false) {
        self.candidates = candidates
        self.ignoringCase = ignoringCase
        folded = candidates.map { Array((ignoringCase ? $0.lowercased() : $0).unicodeScalars) }
        var byLength: [Int: [Int]] = [:]
        for (index, scalars) in folded.enumerated() { byLength[scalars.count, default: []].append(index) }
        self.byLength = byLength
    }

    public var isEmpty: Bool { candidates.isEmpty }

    /// The candidate nearest to `word`, or nil when none is close enough.
    public func nearest(to word: String) -> String? {
        let source = Array((ignoringCase ? word.lowercased() : word).unicodeScalars)
        let limit = Suggestion.allowance(forLength: source.count)
        guard limit > 0 else { return nil }
        var best: (index: Int, distance: Int)?
        for length in max(0, source.count - limit)...(source.count + limit) {
            for index in byLength[length] ?? [] where candidates[index] != word {
                // An earlier candidate wins a tie; a later one must be nearer.
                let bound = best.map { index < $0.index ? $0.distance : $0.distance - 1 } ?? limit
                // (Negative only after an exact match: nothing later in
                // this length can win, and other lengths may hold earlier ones.)
                if bound < 0 { break }
                if let d = Suggestion.distance(source, folded[index], atMost: bound) { best = (index, d) }
            }
        }
        return best.map { candidates[$0.index] }
    }
}
