import CommandSupport
import Foundation
import Interactive
import Katas
import ScenarioKit
import TextKit

extension KataCommand {
    /// Opens the board on `check`'s scene (`KataBoard`): the scenario and
    /// the subclass that makes the user's class as the check does, written
    /// in a folder of this process's (removed when the board closes), run
    /// as any scenario with the user's classes is, live, in a child.
    static func showOnBoard(_ kata: Kata, check: String, userFile: String) throws(UsageError) {
        guard let scene = kata.board?.scenes[check], let checked = kata.check(check) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-kata-board-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let glue = folder.appendingPathComponent(KataBoard.subject(of: kata.className) + ".swift")
        let scenarioFile = folder.appendingPathComponent("\(kata.name)-\(check).ops")
        let text = KataBoard.scenario(scene, check: checked, kata: kata, userFile: userFile, glueFile: glue.path)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(KataBoard.glue(scene, className: kata.className).utf8).write(to: glue)
            try Data(text.utf8).write(to: scenarioFile)
        } catch {
            throw UsageError("cannot write the board's scenario in \(folder.path): \(error.localizedDescription)")
        }
        let file = SourceFile(path: scenarioFile.path, text: text)
        let result = ScenarioReader.read(file, ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else {
            ScenarioLoading.report(result, file: file)
            return
        }
        StandardOutput.write("\nopening the board on \(TerminalText.escaped(checked.title))…\n")
        var options = InteractiveOptions()
        options.startsPaused = true
        _ = try OwnClassRun.board(file, scenario, options: options)
    }
}
