import Testing

@testable import Katas

/// What a kata's harness prints, read and graded: each check's line gives
/// its verdict; a check the program never reached is not decided, and the
/// first of those says how the program ended.
@Suite struct KataGradeTests {
    let kata = Kata.asyncOperation

    func line(_ check: String, _ outcome: String, at: Double? = nil, count: Int? = nil) -> KataLine {
        KataLine(check: check, outcome: outcome, at: at, count: count)
    }

    @Test func aHarnessLineIsReadAndAnyOtherLineIsNot() throws {
        let read = try #require(KataLine.parse(#"opscope-kata {"check":"runs","outcome":"pass","at":0.301}"#))
        #expect(read == line("runs", "pass", at: 0.301))
        #expect(KataLine.parse(#"opscope-kata {"check":"cap","outcome":"overCap","count":7}"#)?.count == 7)
        #expect(KataLine.parse("downloaded in 0.3 s") == nil)
        #expect(KataLine.parse("opscope-kata not json") == nil)
        #expect(KataLine.parse(#" opscope-kata {"check":"runs","outcome":"pass"}"#) == nil)
    }

    @Test func aPassAndAFailureAreGradedWithTheirWordsAndTheRule() throws {
        let verdicts = KataGrader.grade(
            kata,
            lines: [line("runs", "pass", at: 0.301), line("cancelBeforeStart", "ranWork", at: 2.004)],
            ending: .exited(0))
        #expect(verdicts.map(\.check) == kata.checks.map(\.id))
        #expect(verdicts[0].grade == .passed)
        #expect(verdicts[0].says == "its dependent started at 0.301s, after it finished")
        guard case .failed(let rule) = verdicts[1].grade else {
            Issue.record("ranWork should fail")
            return
        }
        #expect(verdicts[1].says.contains("ran its work though the operation was cancelled before it started"))
        #expect(verdicts[1].says.contains("2.004s"))
        #expect(rule.contains("isCancelled first"))
    }

    /// A check that tries what is known to end a program fails with its
    /// rule when the program died during it; a stop or an exit there is
    /// still undecided, and so are the checks after it.
    @Test func aCrashDuringACheckWithACrashRuleFailsItWithTheRule() throws {
        let mainThread = try #require(Kata.named("main-thread"))
        let decided = ["onMain", "cancelBefore", "cancelOnTheWay"].map { line($0, "pass") }
        let crashed = KataGrader.grade(mainThread, lines: decided, ending: .crashed(signal: 4, message: ""))
        guard case .failed(let rule) = crashed[3].grade else {
            Issue.record("a crash on the main queue should fail with the rule: \(crashed[3])")
            return
        }
        #expect(crashed[3].says == "the program was ended by signal 4 (SIGILL)")
        #expect(rule.contains("DispatchQueue.main.sync"))
        let stopped = KataGrader.grade(mainThread, lines: decided, ending: .stopped(afterSeconds: 60))
        #expect(stopped[3].grade == .undecided)
        // Only the check the crash cut carries the rule.
        let early = KataGrader.grade(mainThread, lines: [], ending: .crashed(signal: 4, message: ""))
        #expect(early.allSatisfy { $0.grade == .undecided })
    }

    @Test func checksNeverReachedAreUndecidedAndTheFirstSaysHowTheProgramEnded() {
        let crashed = KataGrader.grade(
            kata, lines: [line("runs", "pass", at: 0.3)],
            ending: .crashed(signal: 4, message: "Fatal error: the download has no server"))
        #expect(crashed[0].grade == .passed)
        #expect(crashed[1].grade == .undecided)
        #expect(
            crashed[1].says == "the program was ended by signal 4 (SIGILL): Fatal error: the download has no server")
        let harnessChecks = crashed[2...].filter { $0.check != Kata.raceCheck }
        #expect(harnessChecks.allSatisfy { $0.grade == .undecided && $0.says == "not reached" })
        // The race check has a program of its own: its own ending says why.
        let race = KataGrader.grade(
            kata, lines: [], ending: .exited(0), raceEnding: .unbuilt("swiftc -sanitize=thread failed"))
        #expect(race.last?.says == "its program could not be built: swiftc -sanitize=thread failed")

        let unstarted = KataGrader.grade(
            kata, lines: [], ending: .exited(0), raceEnding: .unstarted("cannot start /x/program: no such file"))
        #expect(unstarted.last?.says == "cannot start /x/program: no such file")

        let stopped = KataGrader.grade(kata, lines: [], ending: .stopped(afterSeconds: 90))
        #expect(stopped[0].says == "the program was stopped after 90.000s, the kata's time limit")
        #expect(KataGrader.grade(kata, lines: [], ending: .exited(3))[0].says.hasSuffix("(it exited with status 3)"))
    }

    @Test func anOutcomeTheCheckDoesNotHaveDecidesNothing() {
        #expect(KataGrader.verdict(kata, line("runs", "exploded")) == nil)
        #expect(KataGrader.verdict(kata, line("nosuch", "pass")) == nil)
        #expect(KataGrader.grade(kata, lines: [line("runs", "exploded")], ending: .exited(0))[0].grade == .undecided)
    }

    /// Every outcome a check has is one its harness can print, and every
    /// word the harness reports is a check or an outcome of this kata.
    @Test func theHarnessAndTheChecksNameTheSameOutcomes() {
        for check in kata.checks where check.id != Kata.raceCheck {
            #expect(kata.harness.contains("\"\(check.id)\""), "\(check.id) is never reported")
            for outcome in check.outcomes.keys {
                #expect(kata.harness.contains("\"\(outcome)\""), "\(check.id): \(outcome) is never reported")
            }
        }
        let reported = kata.harness.split(separator: "\n").filter { $0.contains("kataReport(\"") }
            .flatMap { $0.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) } }
        let known = Set(kata.checks.map(\.id) + kata.checks.flatMap(\.outcomes.keys))
        for word in reported where word.first?.isLetter == true {
            #expect(known.contains(word), "the harness reports '\(word)', which no check has")
        }
    }

    @Test func theReportMarksEachGradeAndCountsThem() {
        let verdicts = KataGrader.grade(
            kata, lines: [line("runs", "pass", at: 0.3), line("cancelBeforeStart", "wentExecuting", at: 0.001)],
            ending: .crashed(signal: 11, message: "a\u{1B}[2Jb"))
        #expect(KataReport.text(verdicts[0]).hasPrefix("  ✓ it runs and finishes, and Foundation is told\n"))
        let failed = KataReport.text(verdicts[1])
        #expect(failed.hasPrefix("  ✗ cancelled before it starts"))
        #expect(failed.contains("\n      rule: start() looks at isCancelled first"))
        let undecided = KataReport.text(verdicts[2])
        #expect(undecided.contains("not decided: the program was ended by signal 11 (SIGSEGV): a\\u{1B}[2Jb"))
        #expect(!undecided.contains("\u{1B}"))
        #expect(KataReport.summary(verdicts) == "1 of 6 checks passed")
        #expect(KataReport.summary([verdicts[0]]) == "all 1 check passed")
    }

    /// On a terminal, what happened and the rule wrap to its width, their
    /// later lines indented under the first; without one, a line each.
    @Test func theReportWrapsToATerminalsWidthOnly() {
        let verdicts = KataGrader.grade(
            kata, lines: [line("cancelBeforeStart", "ranWork", at: 2.004)], ending: .exited(0))
        let whole = KataReport.text(verdicts[1])
        #expect(whole.split(separator: "\n").count == 3)
        let narrow = KataReport.text(verdicts[1], width: 40).split(separator: "\n").map(String.init)
        #expect(narrow.count > 3)
        #expect(narrow.allSatisfy { $0.count <= 40 || !$0.contains(" ") })
        #expect(narrow[0].hasPrefix("  ✗ cancelled") && narrow[1].hasPrefix("      "))
        let says = narrow.firstIndex { $0.hasPrefix("      start() ran") }
        #expect(says.map { narrow[$0 + 1].hasPrefix("        ") } == true, "\(narrow)")
        let words = narrow.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(words.contains("rule: start() looks at isCancelled first"))
    }
}
