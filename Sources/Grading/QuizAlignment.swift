import Board
import ScenarioKit

/// A start-order answer lined up with the run's real order the way a diff
/// lines up two files: the longest common subsequence (the longest run of
/// operations the answer has in the right relative order) on shared rows,
/// everything else on rows of its own.
///
/// Why a subsequence and not positions: one extra name at the front of an
/// otherwise right answer shifts every position, so a positional score
/// says "0 right" of an answer that has the whole order right. The common
/// subsequence is what the learner got right however the rest shifts.
///
/// When several longest subsequences exist, the one chosen keeps the
/// operations that started first (its places in the run are the
/// lexicographically smallest); at a divergence the answer's row comes
/// before the run's, as in a diff. `b, a, c` against `a, b, c` keeps
/// `a, c`, so `b` is the one out of place. The choice does not change the
/// score.
struct QuizAlignment: Sendable, Hashable {
    enum Row: Sendable, Hashable {
        /// In both lists, in the right order relative to every other `both`.
        case both(OperationID)
        /// Only in the answer at this place: named but never started, or
        /// started elsewhere in the run (out of place).
        case answerOnly(OperationID)
        /// Only in the run at this place: left out of the answer, or named
        /// elsewhere in it (out of place).
        case runOnly(OperationID)
    }

    /// Top to bottom: read down, the answer-side rows give the answer and
    /// the run-side rows give the real order, each unchanged.
    let rows: [Row]

    /// The operations on shared rows, in order.
    var common: [OperationID] {
        rows.compactMap { if case .both(let id) = $0 { id } else { nil } }
    }

    /// Both lists hold each operation at most once.
    init(answer: [OperationID], run: [OperationID]) {
        let (n, m) = (answer.count, run.count)
        // longest[i][j]: length of the longest common subsequence of answer[i...] and run[j...].
        var longest = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                longest[i][j] =
                    answer[i] == run[j]
                    ? longest[i + 1][j + 1] + 1 : max(longest[i + 1][j], longest[i][j + 1])
            }
        }
        var rows: [Row] = []
        var (i, j) = (0, 0)
        while i < n || j < m {
            if i < n, j < m, answer[i] == run[j] {
                rows.append(.both(answer[i]))
                i += 1
                j += 1
            } else if j == m || (i < n && longest[i + 1][j] >= longest[i][j + 1]) {
                rows.append(.answerOnly(answer[i]))
                i += 1
            } else {
                rows.append(.runOnly(run[j]))
                j += 1
            }
        }
        self.rows = rows
    }
}
