/// How a queue's `running` row draws its counts, one character a column:
/// the digit while no column counts more than 9; above that, every column
/// on one scale of eighth blocks (`▁` to `█`), `█` being the most the row
/// shows, which its label then says (`█=24`). A column with a count has
/// at least `▁`; one with none stays blank.
public enum RunningScale {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The characters for `tops` (the most executing at once, per column),
    /// and the count `█` stands for when the row is drawn to scale.
    /// `ascii`: no blocks; counts above 9 are drawn in tens (`1` for 10 to
    /// 19, …, `#` for 100 and more), and the label says `x10`.
    public static func glyphs(_ tops: [Int], ascii: Bool = false) -> (glyphs: [Character], most: Int?) {
        let most = tops.max() ?? 0
        guard most > 9 else {
            return (tops.map { $0 <= 0 ? " " : Character(String($0)) }, nil)
        }
        if ascii {
            return (tops.map { $0 <= 0 ? " " : $0 < 10 ? "." : $0 >= 100 ? "#" : Character(String($0 / 10)) }, most)
        }
        let glyphs = tops.map { top -> Character in
            guard top > 0 else { return " " }
            let level = (top * blocks.count + most - 1) / most
            return blocks[min(blocks.count, max(1, level)) - 1]
        }
        return (glyphs, most)
    }

    /// What a row's label adds when it is drawn to scale: ` █=24`
    /// (` x10, max 24` without blocks).
    public static func legend(most: Int?, ascii: Bool = false) -> String {
        guard let most else { return "" }
        return ascii ? " x10 max \(most)" : " █=\(most)"
    }
}
