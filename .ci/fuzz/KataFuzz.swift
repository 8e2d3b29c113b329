// A libFuzzer target for what opscope reads of a kata's program and of the
// compiler, built by `.ci/fuzz/run` (not by SwiftPM). The program runs the
// user's code, so its output is anyone's: any bytes, as its standard
// output, go line by line through `KataLine.parse` and the grader, and as
// its standard error, through the message of a crash; as the compiler's
// output, through `CompilerDiagnostic.parse`. Checked, trapping (so
// libFuzzer keeps the input) when broken:
// - nothing traps, whatever the bytes;
// - every check gets exactly one verdict, in the kata's order;
// - the report holds no control character a terminal would act on but its
//   own newlines: what the program wrote never reaches a terminal raw.
import Katas
import TextKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKataOutput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { KataLine.parse(String($0)) }
    for kata in Kata.all {
        for ending in [KataEnding.exited(0), .crashed(signal: 6, message: text), .stopped(afterSeconds: 90)] {
            let verdicts = KataGrader.grade(kata, lines: lines, ending: ending)
            if verdicts.map(\.check) != kata.checks.map(\.id) {
                fatalError("the verdicts are not one a check, in the kata's order")
            }
            // As a pipe gets it, and wrapped as a narrow terminal does.
            let report =
                verdicts.map { KataReport.text($0) }.joined() + verdicts.map { KataReport.text($0, width: 40) }.joined()
                + KataReport.summary(verdicts)
            if let bad = report.unicodeScalars.first(where: { TerminalText.isControl($0) && $0 != "\n" }) {
                fatalError("the report holds the control character U+\(String(bad.value, radix: 16, uppercase: true))")
            }
        }
    }
    for diagnostic in CompilerDiagnostic.parse(text) where diagnostic.text.isEmpty {
        fatalError("a diagnostic without its header line")
    }
    return 0
}
