import Foundation
import Screen

/// The picker's data: its list, the path of each entry (numbered as the
/// list numbers them), and its state.
@MainActor
package struct PickerModel {
    package var list: PickerList
    package var paths: [String]
    /// The entries that open as their quiz's question (predict mode).
    package var questions: Set<Int> = []
    package var state = PickerState()

    package func render(size: Size, glyphs: GlyphSet, colors: Bool) -> CellGrid {
        ScenarioPicker.render(list: list, state: state, size: size, glyphs: glyphs, colors: colors)
    }

    /// The entry of `path` (under the questions when `asQuestion`): the
    /// last such, so a question is its library quiz rather than the
    /// practice's next one.
    func index(of path: String, asQuestion: Bool) -> Int? {
        let wanted = (path as NSString).standardizingPath
        return paths.indices.last {
            (paths[$0] as NSString).standardizingPath == wanted && questions.contains($0) == asQuestion
        }
    }

    /// The Questions section again, with the practice record as it is now.
    mutating func refreshPractice() {
        (list, paths) = PickerLauncher.markQuestions(
            list, paths: paths, questions: questions, practice: PracticeKeeper())
    }
}
