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
    /// The entries that are katas, with each one's name.
    package var katas: [Int: String] = [:]
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
        let practice = PracticeKeeper()
        (list, paths) = PickerLauncher.markQuestions(list, paths: paths, questions: questions, practice: practice)
        refreshKatas(practice: practice)
    }

    /// The katas' marks and notes again: a check may have kept a result,
    /// or written the starting file.
    mutating func refreshKatas(practice: PracticeKeeper? = PracticeKeeper()) {
        let fresh = PickerLauncher.kataEntries(practice: practice)
        for (index, name) in katas {
            guard index < list.count, let entry = fresh.first(where: { $0.fileName == name }) else { continue }
            list[entry: index].title = entry.title
            list[entry: index].firstNote = entry.firstNote
        }
    }
}
