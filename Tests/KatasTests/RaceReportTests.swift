import Testing

@testable import Katas

/// The thread sanitizer's report, read down to the user's file: the first
/// race's two places, each a line of that file with its text; a race that
/// never reaches it, no race and a clean end, and an end that says nothing.
@Suite struct RaceReportTests {
    static let file = "/home/you/kata/async-operation.swift"
    static let source = (1...40).map { "line \($0) of the source" }.joined(separator: "\n")
    static let report = """
        ==================
        WARNING: ThreadSanitizer: data race (pid=11284)
          Write of size 1 at 0x722c000000a8 by thread T4:
            #0 $s6unsafe13AsyncDownloadC5startyyF /home/you/kata/async-operation.swift:25:19 (unsafe+0x106009) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #1 $s10Foundation14OperationQueueC9_scheduleyyAA0B0CF <null> (libFoundation.so+0x34086f) (BuildId: bbe2057ad9a7c4b7122ec47d2500ff98e0395cef)
            #2 _dispatch_continuation_pop crtstuff.c (libdispatch.so+0x2c087) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Previous read of size 1 at 0x722c000000a8 by thread T1:
            #0 $s6unsafe13AsyncDownloadC11isExecutingSbvg /home/you/kata/async-operation.swift:14:38 (unsafe+0x105d45) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #1 $s6unsafeyyYbcfU0_SbAA13AsyncDownloadCXEfU_ /tmp/tsan/main.swift:17:51 (unsafe+0x102757) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #2 $ss14_ArrayProtocolPsE6filterySay7ElementQzGSbAEKXEKF <null> (libswiftCore.so+0x2f81e8) (BuildId: b521f25fdeacf504eca83d97c7308e8fc11be729)
            #3 $s6unsafeyyYbcfU0_TA /<compiler-generated> (unsafe+0x102ce9) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #4 $s10Foundation6ThreadC4mainyyF <null> (libFoundation.so+0x3795f8) (BuildId: bbe2057ad9a7c4b7122ec47d2500ff98e0395cef)

          Location is heap block of size 170 at 0x722c00000000 allocated by main thread:
            #0 malloc /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:686:5 (unsafe+0x7ea90) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #1 swift_slowAlloc <null> (libswiftCore.so+0x46fa6e) (BuildId: b521f25fdeacf504eca83d97c7308e8fc11be729)
            #2 $s6unsafeAA13AsyncDownloadCSiXEfU_ /tmp/tsan/main.swift:4:32 (unsafe+0x101433) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #3 $sSlsE3mapySayqd__Gqd__7ElementQzqd_0_YKXEqd_0_YKs5ErrorRd_0_r0_lF /<compiler-generated> (unsafe+0x1019bd) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)
            #4 main /tmp/tsan/main.swift:4:21 (unsafe+0x102fce) (BuildId: e52436322a4dd8344ff27cd07bbbfbe06632267c)

        SUMMARY: ThreadSanitizer: data race /home/you/kata/async-operation.swift:25:19 in start
        ==================
        """

    func line(output: String = "", stderr: String, cleanly: Bool = false, file: String = Self.file) -> KataLine? {
        RaceReport.line(
            output: output, stderr: stderr, exitedCleanly: cleanly, total: 200, userFile: file, source: Self.source)
    }

    @Test func bothPlacesOfTheFirstRaceAreTheUsersLinesWithTheirText() throws {
        let read = try #require(line(stderr: "a line before\n" + Self.report))
        #expect(read.outcome == "race")
        #expect(
            read.detail
                == "written at async-operation.swift:25 (`line 25 of the source`) on one thread, and read at "
                + "async-operation.swift:14 (`line 14 of the source`) on another, with nothing ordering the two")
        let verdict = try #require(KataGrader.verdict(Kata.asyncOperation, read))
        #expect(verdict.says.hasPrefix("a data race: written at async-operation.swift:25"))
    }

    @Test func aRaceThatNeverReachesTheFileSaysWhereItWas() throws {
        let read = try #require(line(stderr: Self.report, file: "/elsewhere/mine.swift"))
        #expect(read.outcome == "raceElsewhere")
        #expect(read.detail?.contains("async-operation.swift:25:19") == true)
    }

    @Test func noRaceAndEveryOperationFinishedPasses() {
        let finished = "opscope-kata-race finished 200\n"
        #expect(line(output: finished, stderr: "", cleanly: true)?.outcome == "pass")
        #expect(line(output: finished, stderr: "", cleanly: true)?.count == 200)
        #expect(line(output: "opscope-kata-race finished 37\n", stderr: "", cleanly: true)?.outcome == "unfinished")
        // A crash or a stop without a report, or no last line: nothing to say.
        #expect(line(output: finished, stderr: "Fatal error: x", cleanly: false) == nil)
        #expect(line(output: "", stderr: "", cleanly: true) == nil)
    }

    @Test func accessHeadersAreReadAsVerbs() {
        #expect(RaceReport.verb(of: "Write of size 1 at 0x1 by thread T4:") == "written")
        #expect(RaceReport.verb(of: "Previous read of size 8 at 0x1 by main thread:") == "read")
        #expect(RaceReport.verb(of: "Atomic write of size 4 at 0x1 by thread T2:") == "written")
        #expect(RaceReport.verb(of: "Location is heap block of size 170 at 0x1 allocated by main thread:") == nil)
    }
}
