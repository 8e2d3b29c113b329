import Foundation
import Katas
import Testing

/// The katas in the picker, as a candidate meets them: a section of their
/// own, Enter checks `NAME.swift` in the folder (writing a start when there
/// is none), the report comes into a pane as the checks decide, the
/// result shows as a mark, and quitting leaves nothing running.
@Suite("katas from the picker, in tmux")
struct KataPickerTests {
    @Test func aKataIsCheckedFromThePickerAndItsResultShows() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let folder = scratch.directory.path
        // The picker lists `scenarios/` of the folder it runs in.
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/scenarios", withDestinationPath: OpscopeBinary.packageRoot.path + "/scenarios")
        let fixtures = OpscopeBinary.packageRoot.path + "/Tests/opscopeTests/Fixtures/katas"
        try FileManager.default.copyItem(
            atPath: fixtures + "/main-thread/correct.swift", toPath: folder + "/main-thread.swift")
        let data = folder + "/data"
        let tmux = try TmuxSession(
            [], columns: 80, rows: 24, environment: ["XDG_CACHE_HOME": folder + "/cache", "XDG_DATA_HOME": data],
            directory: folder)
        try tmux.waitFor(text: "choose a scenario")
        // The next question, the library, the questions, then the katas.
        try tmux.send("Tab", "Tab", "Tab")
        try tmux.waitFor(text: "Katas: write the Operation, the engine grades it")
        try tmux.waitFor(text: "▶ \(Kata.all[0].name)")
        try tmux.waitFor(text: "Enter check your file")
        let mainThread = try #require(Kata.all.firstIndex { $0.name == "main-thread" })
        try tmux.sendKeys(Array(repeating: "Down", count: mainThread))
        try tmux.waitFor(text: "Enter checks main-thread.swift here")
        try tmux.send("Enter")
        try tmux.waitFor(text: "main-thread: what opscope kata says")
        // The pane follows the report to its end.
        try tmux.waitFor("the checks to pass", timeout: 120) { $0.contains("all 4 checks passed") }
        try tmux.send("Escape")
        try tmux.waitFor(text: "▶ main-thread  ✓ Work that must run on the main thread")

        // No file yet: Enter writes the start, and the start fails.
        let resultPassing = try #require(Kata.all.firstIndex { $0.name == "result-passing" })
        try tmux.sendKeys(Array(repeating: "Up", count: mainThread - resultPassing))
        try tmux.waitFor(text: "Enter writes result-passing.swift here")
        try tmux.send("Enter")
        try tmux.waitFor(text: "wrote result-passing.swift")
        try tmux.waitFor("the start's checks to fail", timeout: 120) { $0.contains("of 4 checks passed") }
        #expect(FileManager.default.fileExists(atPath: folder + "/result-passing.swift"))
        try tmux.send("Escape")
        try tmux.waitFor(text: "▶ result-passing  ✗ Passing a result")
        try tmux.waitFor(text: "Enter checks result-passing.swift here")
        let record = try String(contentsOfFile: data + "/opscope/practice.json", encoding: .utf8)
        #expect(record.contains("kata:main-thread") && record.contains("kata:result-passing"))

        // A check under way when the picker quits goes with it.
        try tmux.send("Enter")
        try tmux.waitFor(text: "result-passing: what opscope kata says")
        try tmux.send("Escape")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
        let left = KataCommandTests.commandLines().filter {
            // (tmux's own command line names the folder: it is the test's.)
            !$0.hasPrefix(TmuxSession.tmuxPath ?? "tmux")
                && ($0.contains(folder) || $0.contains("kata\0result-passing\0--width"))
        }
        #expect(left.isEmpty, "what the picker ran outlived it: \(left)")
    }
}
