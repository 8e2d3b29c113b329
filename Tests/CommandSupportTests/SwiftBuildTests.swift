import CommandSupport
import Foundation
import Synchronization
import Testing

/// Compiling a user's files, cached: two real compiles (a program, and
/// files with errors), the rest with a stand-in compiler script that is
/// quick and does what each test needs.
@Suite struct SwiftBuildTests {
    /// A fresh folder of the test's own; the caller removes it.
    private static func temporaryFolder() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/opscope-build-XXXXXX").utf8CString)
        try #require(mkdtemp(&template) != nil)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes an executable shell script at `path`.
    private static func script(_ path: String, _ body: String) throws {
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        try #require(chmod(path, 0o755) == 0)
    }

    /// A stand-in for swiftc: waits `delay` seconds, then writes a program
    /// that prints `built` where `-o` says.
    private static func fakeCompiler(in folder: String, delay: Double = 0) throws -> SwiftCompiler {
        let path = folder + "/fake-swiftc"
        try script(
            path,
            """
            out=""
            while [ $# -gt 0 ]; do if [ "$1" = -o ]; then out=$2; fi; shift; done
            sleep \(delay)
            printf '#!/bin/sh\\necho built\\n' > "$out" && chmod +x "$out"
            """)
        return SwiftCompiler(path: path)
    }

    private static func source(_ name: String, _ text: String) -> SwiftBuild.Source {
        SwiftBuild.Source(name: name, contents: Array(text.utf8))
    }

    private static func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    // MARK: - Real compiles

    @Test func aProgramIsBuiltRunsAndIsThenTakenFromTheCache() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let compiler = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment).get()
        let version = try compiler.version()
        #expect(version.contains("Swift version"))
        let sources = [Self.source("main.swift", "print(\"hello, \" + String(6 * 7))\n")]
        let build = SwiftBuild(compiler: compiler, compilerVersion: version, cacheRoot: root)
        let first = build.build(sources, flags: ["-Onone"])
        guard case .built(let path, let seconds) = first else {
            Issue.record("not built: \(first)")
            return
        }
        #expect(path == build.productPath(sources, flags: ["-Onone"]))
        #expect(path.hasPrefix(root + "/builds/") && seconds > 0)
        let ran = try ChildProcess.run(path, [], timeout: 60)
        #expect(ran.status == .exited(0))
        #expect(String(decoding: ran.stdout, as: UTF8.self) == "hello, 42\n")
        // A compiler that would fail at once: the program is not built again.
        let again = SwiftBuild(compiler: SwiftCompiler(path: "/bin/false"), compilerVersion: version, cacheRoot: root)
        #expect(again.build(sources, flags: ["-Onone"]) == .cached(path: path))
        let kept = Self.entries(root + "/builds")
        #expect(kept == [String(path.dropFirst(root.count + 8).dropLast(8))], "no scratch folder is left")
    }

    @Test func errorsNameEachFileByItsOwnNameLineAndColumn() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let compiler = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment).get()
        let build = SwiftBuild(compiler: compiler, compilerVersion: try compiler.version(), cacheRoot: root)
        let user = Self.source("/home/someone/kata/Solution.swift", "func answer() -> Int {\n    return \"42\"\n}\n")
        let harness = Self.source("main.swift", "print(answer())\nlet check: String = 7\n")
        let outcome = build.build([user, harness], flags: [])
        guard case .failed(let diagnostics, let status) = outcome else {
            Issue.record("not failed: \(outcome)")
            return
        }
        #expect(status != 0)
        let lines = diagnostics.split(separator: "\n", omittingEmptySubsequences: false)
        let userError = try #require(
            lines.firstIndex { $0.hasPrefix("/home/someone/kata/Solution.swift:2:12: error:") })
        #expect(lines.count > userError + 2 && lines[userError + 1] == "    return \"42\"")
        #expect(lines.count > userError + 2 && lines[userError + 2].hasPrefix("           ^"))
        #expect(lines.contains { $0.hasPrefix("main.swift:2:21: error:") }, "\(diagnostics)")
        #expect(Self.entries(root + "/builds").isEmpty, "a failed build leaves nothing behind")
    }

    // MARK: - The key

    @Test func everyInputChangesTheKey() {
        let build = SwiftBuild(compiler: SwiftCompiler(path: "/x"), compilerVersion: "Swift 6.3", cacheRoot: "/c")
        let sources = [Self.source("/home/a/Solution.swift", "let a = 1\n"), Self.source("main.swift", "print(a)\n")]
        let base = build.key(sources, flags: ["-O"])
        #expect(base.count == 64 && base == build.key(sources, flags: ["-O"]))
        var changedByte = sources
        changedByte[0].contents[8] = UInt8(ascii: "2")
        let otherVersion = SwiftBuild(
            compiler: SwiftCompiler(path: "/x"), compilerVersion: "Swift 6.4", cacheRoot: "/c")
        let others = [
            build.key(changedByte, flags: ["-O"]),
            build.key(sources, flags: ["-Onone"]),
            build.key(sources, flags: []),
            build.key(Array(sources.reversed()), flags: ["-O"]),
            otherVersion.key(sources, flags: ["-O"]),
            // The same bytes cut in other places.
            build.key([Self.source("/home/a/Solution.swif", "tlet a = 1\n"), sources[1]], flags: ["-O"]),
            build.key([Self.source("/home/a/Solution.swift", "let a = 1\nprint(a)\n")], flags: ["-O"]),
            build.key(sources, flags: ["-", "O"]),
        ]
        #expect(Set(others + [base]).count == others.count + 1)
        #expect(build.productPath(sources, flags: ["-O"]) == "/c/builds/\(base)/program")
    }

    // MARK: - The cache, with a stand-in compiler

    @Test func aFolderWithoutItsProgramIsBuiltAgain() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let build = SwiftBuild(compiler: try Self.fakeCompiler(in: root), compilerVersion: "v", cacheRoot: root)
        let sources = [Self.source("main.swift", "")]
        let folder = root + "/builds/" + build.key(sources, flags: [])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "cut short".write(toFile: folder + "/half", atomically: false, encoding: .utf8)
        let outcome = build.build(sources, flags: [])
        guard case .built(let path, _) = outcome else {
            Issue.record("not built: \(outcome)")
            return
        }
        #expect(Self.entries(folder) == ["program", "src"])
        #expect(String(decoding: try ChildProcess.run(path, [], timeout: 60).stdout, as: UTF8.self) == "built\n")
        #expect(Self.entries(root + "/builds").count == 1)
    }

    /// A scratch folder a killed build left is removed by a later build
    /// once it is an hour old; a recent one (a build under way) is not.
    @Test func scratchLeftByABuildThatNeverEndedIsRemovedOnceStale() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let builds = root + "/builds"
        for name in [".building-0123456789abcdef-old", ".discarded-1-2", ".building-fedcba9876543210-new"] {
            try FileManager.default.createDirectory(
                atPath: builds + "/" + name + "/src", withIntermediateDirectories: true)
        }
        let old = Date().addingTimeInterval(-(SwiftBuild.staleAfter + 60))
        for name in [".building-0123456789abcdef-old", ".discarded-1-2"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: builds + "/" + name)
        }
        let build = SwiftBuild(compiler: try Self.fakeCompiler(in: root), compilerVersion: "v", cacheRoot: root)
        let sources = [Self.source("main.swift", "")]
        guard case .built = build.build(sources, flags: []) else {
            Issue.record("not built")
            return
        }
        #expect(Self.entries(builds) == [".building-fedcba9876543210-new", build.key(sources, flags: [])])
    }

    @Test func twoBuildsOfOneKeyAtOnceBothEndWithAWorkingProgram() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let build = SwiftBuild(
            compiler: try Self.fakeCompiler(in: root, delay: 1), compilerVersion: "v", cacheRoot: root)
        let sources = [Self.source("main.swift", "print(1)\n")]
        let outcomes = Mutex<[SwiftBuild.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let outcome = build.build(sources, flags: [])
            outcomes.withLock { $0.append(outcome) }
        }
        let path = build.productPath(sources, flags: [])
        let ended = outcomes.withLock { $0 }
        #expect(ended.count == 2)
        for outcome in ended {
            switch outcome {
            case .built(path, _), .cached(path): break
            default: Issue.record("unexpected \(outcome)")
            }
        }
        #expect(String(decoding: try ChildProcess.run(path, [], timeout: 60).stdout, as: UTF8.self) == "built\n")
        #expect(Self.entries(root + "/builds").count == 1, "the loser's folder is gone")
    }

    @Test func eachFileIsWrittenAfterALineNamingIt() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        // Shows what it was given, and fails.
        try Self.script(root + "/show", "for f; do case \"$f\" in *.swift) cat \"$f\";; esac; done >&2; exit 1\n")
        let build = SwiftBuild(compiler: SwiftCompiler(path: root + "/show"), compilerVersion: "v", cacheRoot: root)
        let outcome = build.build(
            [
                Self.source("/home/a/Solution.swift", "let a = 1\n"),
                Self.source("script.swift", "#!/usr/bin/swift\nprint(a)\n"),
                Self.source("/home/a/\"quoted\".swift", "let q = 2\n"),
            ], flags: [])
        let shown = """
            #sourceLocation(file: "/home/a/Solution.swift", line: 1)
            let a = 1
            #!/usr/bin/swift
            #sourceLocation(file: "script.swift", line: 2)
            print(a)
            let q = 2

            """
        #expect(outcome == .failed(diagnostics: shown, exitStatus: 1))
    }

    @Test func aCompilerThatCannotStartOrNeverEndsIsSaidSo() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let sources = [Self.source("main.swift", "")]
        let missing = SwiftBuild(compiler: SwiftCompiler(path: root + "/none"), compilerVersion: "v", cacheRoot: root)
        #expect(
            missing.build(sources, flags: [])
                == .unavailable(reason: "cannot start \(root)/none: No such file or directory"))
        let slow = SwiftBuild(
            compiler: try Self.fakeCompiler(in: root, delay: 30), compilerVersion: "v", cacheRoot: root, timeout: 0.5)
        #expect(slow.build(sources, flags: []) == .timedOut(afterSeconds: 0.5))
        #expect(Self.entries(root + "/builds").isEmpty)
    }

    // MARK: - Finding the compiler and the cache

    @Test func anExplicitCompilerThatIsNotThereIsReportedNotSkipped() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        let missing = SwiftCompiler.find(environment: ["OPSCOPE_SWIFTC": root + "/swiftc", "PATH": "/usr/bin:/bin"])
        #expect(
            missing.map(\.path)
                == .failure(
                    .init(description: "no swiftc found: $OPSCOPE_SWIFTC is \(root)/swiftc, which does not exist")))
        try "".write(toFile: root + "/plain", atomically: false, encoding: .utf8)
        let plain = SwiftCompiler.find(environment: ["OPSCOPE_SWIFTC": root + "/plain"])
        #expect(
            plain.map(\.path)
                == .failure(
                    .init(
                        description:
                            "no swiftc found: $OPSCOPE_SWIFTC is \(root)/plain, which is not an executable file")))
        let fake = try Self.fakeCompiler(in: root)
        #expect(SwiftCompiler.find(environment: ["OPSCOPE_SWIFTC": fake.path]).map(\.path) == .success(fake.path))
    }

    @Test func pathIsSearchedBeforeTheInstallPlacesAndAllAreNamedWhenEmpty() throws {
        let root = try Self.temporaryFolder()
        defer { Self.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try Self.script(root + "/bin/swiftc", "exit 0\n")
        let places = ["/nonexistent/c/swiftc", "/nonexistent/d/swiftc"]
        let found = SwiftCompiler.find(environment: ["PATH": "/nonexistent/a:\(root)/bin"], installPlaces: places)
        #expect(found.map(\.path) == .success(root + "/bin/swiftc"))
        let none = SwiftCompiler.find(environment: ["PATH": "/nonexistent/a:/nonexistent/b"], installPlaces: places)
        #expect(
            none.map(\.path)
                == .failure(
                    .init(
                        description: "no swiftc found: looked at $OPSCOPE_SWIFTC (unset), in PATH (/nonexistent/a, "
                            + "/nonexistent/b), /nonexistent/c/swiftc and /nonexistent/d/swiftc")))
        let bare = SwiftCompiler.find(environment: ["OPSCOPE_SWIFTC": ""], installPlaces: places)
        #expect(
            bare.map(\.path)
                == .failure(
                    .init(
                        description: "no swiftc found: looked at $OPSCOPE_SWIFTC (empty), in PATH (unset), "
                            + "/nonexistent/c/swiftc and /nonexistent/d/swiftc")))
    }

    @Test(arguments: [
        (["XDG_CACHE_HOME": "/xdg/cache/", "HOME": "/home/u"], "/xdg/cache/opscope"),
        (["XDG_CACHE_HOME": "relative/cache", "HOME": "/home/u"], "/home/u/.cache/opscope"),
        (["HOME": "/home/u"], "/home/u/.cache/opscope"),
        (["HOME": "relative"], nil),
        ([:], nil),
    ])
    func theCacheFolderFollowsTheXDGRules(_ environment: [String: String], _ expected: String?) {
        #expect(SwiftBuild.cacheRoot(environment: environment) == expected)
    }
}
