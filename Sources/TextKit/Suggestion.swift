/// "Did you mean …?": the nearest word by edit distance. The one
/// suggester of the project: diagnostics, the quiz's answers, the command line.
///
/// Runs only for a word that is already known to be wrong, so its cost
/// (one distance per candidate) is paid on the error path only.
public enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is close enough.
    ///
    /// Distance is optimal string alignment (insertions, deletions,
    /// substitutions and swaps of two neighbours each cost 1), counted in
    /// Unicode scalars. Allowed: 1 edit for words of up to 4 scalars, 2 up
    /// to 8, 3 beyond, and never as many edits as the word has scalars (so
    /// `a` does not suggest `b`). Ties go to the earlier candidate, which
    /// is the one declared first. `ignoringCase` compares lower-cased
    /// words (and still answers the candidate as written).
    public static func nearest(
        to word: String, in candidates: some Sequence<String>, ignoringCase: Bool = false
    ) -> String? {
        let fold = { (text: String) in ignoringCase ? text.lowercased() : text }
        let source = Array(fold(word).unicodeScalars)
        let limit = min(threshold(for: source.count), max(source.count - 1, 0))
        guard limit > 0 else { return nil }
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let target = Array(fold(candidate).unicodeScalars)
            let bound = min(best.map { $0.distance - 1 } ?? limit, limit)
            if abs(target.count - source.count) > bound { continue }
            let d = distance(source, target)
            if d <= bound { best = (candidate, d) }
        }
        return best?.word
    }

    static func threshold(for length: Int) -> Int {
        length <= 4 ? 1 : length <= 8 ? 2 : 3
    }

    /// Optimal string alignment distance between two scalar arrays.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
