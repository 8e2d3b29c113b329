// A libFuzzer target for the scenario language, built by `.ci/fuzz/run`
// (not by SwiftPM): any bytes go through the whole front end, and what the
// front end promises is checked, trapping (so libFuzzer keeps the input)
// when a promise is broken:
// - reading never traps, whatever the bytes, and rendering every
//   diagnostic never traps (windowed lines, wide characters, bad UTF-8);
// - a file that reads without errors prints (ScenarioPrinter) as a file
//   that reads without errors and prints back the same text: the
//   canonical print is a fixed point;
// - the Swift export of such a file can be printed;
// - nothing the file holds reaches a terminal raw: the diagnostics without
//   colour and the Swift export hold no control character
//   (`TerminalText.isControl`) but newlines and the program's tabs.
import ScenarioKit
import TextKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioLanguage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let file = SourceFile(path: "fuzz.ops", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    // Read as `check` reads (`class TYPE` accepted), so that its print
    // and its program are fuzzed too; the default read refuses it, and
    // must not trap either.
    _ = ScenarioReader.read(file)
    let result = ScenarioReader.read(file, ownCode: .accepted)
    _ = DiagnosticPrinter(width: 40).renderAll(result, file: file, color: true)
    checkNoControls(DiagnosticPrinter().renderAll(result, file: file, color: false), "the diagnostics", tabs: true)
    guard let scenario = result.scenario else { return 0 }
    let printed = ScenarioPrinter().source(for: scenario)
    let again = ScenarioReader.read(SourceFile(path: "printed.ops", text: printed), ownCode: .accepted)
    guard let reread = again.scenario, !again.hasErrors else {
        let why = DiagnosticPrinter().renderAll(
            again, file: SourceFile(path: "printed.ops", text: printed), color: false)
        fatalError("the canonical print of a valid file does not read back:\n\(printed)\n\(why)")
    }
    let printedAgain = ScenarioPrinter().source(for: reread)
    if printedAgain != printed {
        fatalError("the canonical print is not a fixed point:\n\(printed)\n---\n\(printedAgain)")
    }
    checkNoControls(SwiftProgramPrinter(sourceName: "fuzz.ops").program(for: scenario), "the Swift export", tabs: true)
    return 0
}

/// `text` holds no control character a terminal would act on but newlines
/// (and tabs, where `tabs`: a source line keeps its tabs under the caret).
func checkNoControls(_ text: String, _ what: String, tabs: Bool) {
    let bad = text.unicodeScalars.first { TerminalText.isControl($0) && $0 != "\n" && !(tabs && $0 == "\t") }
    if let bad { fatalError("\(what) holds the control character U+\(String(bad.value, radix: 16, uppercase: true))") }
}
