import CommandSupport
import Foundation
import Katas
import Practice
import TextKit

extension KataCommand {
    /// Keeps the kata's result in the practice record (right when every
    /// check passed) for the concepts it is about, where `opscope practice`
    /// counts how the learner stands; says where (wrapped to `width`, as
    /// the report above it), or why it was not kept.
    static func keep(_ kata: Kata, passed: Bool, width: Int?) {
        guard let folder = PracticeStore.folder(environment: ProcessInfo.processInfo.environment) else {
            StandardOutput.write("your result was not kept: no data folder (set HOME or XDG_DATA_HOME)\n")
            return
        }
        let store = PracticeStore(folder: folder)
        let concepts = kata.concepts.compactMap(Concept.init(rawValue:))
        let now = Date()
        do {
            let updated = try store.update(now: now) { old in
                PracticeScheduler.recording(
                    right: passed, for: .kata(name: kata.name), concepts: concepts, in: old, now: now)
            }
            for message in updated.messages { MessagePrinter.standardError.warning(message) }
            guard updated.canSave else {
                StandardOutput.write(
                    "your result was not kept: \(updated.messages.first ?? PracticeStore.cannotWrite)\n")
                return
            }
            let said =
                "kept in your practice record (\(TerminalText.escaped(store.path))), for "
                + Spelling.list(concepts.map(\.title))
            StandardOutput.write(
                (width.map { Spelling.wrap(said, width: $0) } ?? [said]).joined(separator: "\n") + "\n")
        } catch {
            StandardOutput.write("your result was not kept (\(error.message))\n")
        }
    }
}
