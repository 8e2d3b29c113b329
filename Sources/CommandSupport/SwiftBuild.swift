import Foundation
import TextKit

/// The Swift compiler opscope compiles a user's code with.
///
/// Found once per command, from the environment: an explicit
/// `$OPSCOPE_SWIFTC` wins (and, when it names no program, is reported as
/// such rather than passed over), then PATH, then the usual install places.
package struct SwiftCompiler: Equatable, Sendable {
    /// The compiler's executable, `…/swiftc`.
    package let path: String

    /// A compiler at `path`, taken as it is (`find` is what checks).
    package init(path: String) { self.path = path }

    /// No compiler was found; `description` names every place looked at, so
    /// the user can tell which one should have held it.
    package struct NotFound: Error, Equatable, CustomStringConvertible {
        /// `no swiftc found: looked at …`, one sentence for the user.
        package var description: String

        /// A failure saying `description` (tests compare against one).
        package init(description: String) { self.description = description }
    }

    /// The compiler could not say its version (it would not start, or it
    /// failed): it is not one opscope can build with.
    package struct Unusable: Error, CustomStringConvertible {
        /// What went wrong, with what the compiler said if anything.
        package var description: String
    }

    /// Where a compiler is looked for after PATH, in order.
    package static let installPlaces = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]

    /// The compiler named by `$OPSCOPE_SWIFTC` when it is set (an error when
    /// that names no executable file), else the first executable `swiftc`
    /// in PATH's folders, else the first of `installPlaces`.
    package static func find(
        environment: [String: String], installPlaces: [String] = installPlaces
    ) -> Result<SwiftCompiler, NotFound> {
        let explicit = environment["OPSCOPE_SWIFTC"] ?? ""
        if !explicit.isEmpty {
            if isExecutableFile(explicit) { return .success(SwiftCompiler(path: explicit)) }
            let why = FileManager.default.fileExists(atPath: explicit) ? "is not an executable file" : "does not exist"
            return .failure(NotFound(description: "no swiftc found: $OPSCOPE_SWIFTC is \(explicit), which \(why)"))
        }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in folders {
            let candidate = (folder.hasSuffix("/") ? folder : folder + "/") + "swiftc"
            if isExecutableFile(candidate) { return .success(SwiftCompiler(path: candidate)) }
        }
        for candidate in installPlaces where isExecutableFile(candidate) {
            return .success(SwiftCompiler(path: candidate))
        }
        let variable = environment["OPSCOPE_SWIFTC"] == nil ? "unset" : "empty"
        let path =
            environment["PATH"] == nil ? "unset" : folders.isEmpty ? "empty" : folders.joined(separator: ", ")
        let places = ["$OPSCOPE_SWIFTC (\(variable))", "in PATH (\(path))"] + installPlaces
        let list = places.dropLast().joined(separator: ", ") + " and " + (places.last ?? "")
        return .failure(NotFound(description: "no swiftc found: looked at \(list)"))
    }

    /// What `swiftc --version` prints: part of every cache key, so that a
    /// new toolchain never runs a program an older one built.
    package func version() throws -> String {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(path, ["--version"], timeout: 60)
        } catch {
            throw Unusable(description: "\(error)")
        }
        guard outcome.status == .exited(0) else {
            let said = String(decoding: outcome.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Unusable(
                description: "\(path) --version failed (\(outcome.status.description))"
                    + (said.isEmpty ? "" : ": \(said)"))
        }
        return String(decoding: outcome.stdout, as: UTF8.self)
    }

    /// True for a regular file this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}

/// Compiles a few Swift source files into one program, once: the program
/// is kept in a cache folder under a key made of everything that went into
/// it, and the same inputs later take the kept one.
///
/// Each build is done in a fresh folder and renamed into place only when
/// it succeeded, so a half-written program is never found, and two opscopes
/// building the same key at once both end with a working one. Diagnostics
/// name each file by its `Source.name` (the user's own path for the user's
/// file, `harness.swift` for a generated one), with its own line numbers.
package struct SwiftBuild: Sendable {
    /// One input file: the name diagnostics give it, and its bytes.
    package struct Source: Equatable, Sendable {
        /// What diagnostics call the file: a path, or a bare file name. Its
        /// last part is the file's name for the compiler (so `main.swift`
        /// is the one whose top-level code runs).
        package var name: String
        /// The file's bytes: hashed for the key, compiled after a line naming it.
        package var contents: [UInt8]

        /// A file named `name` holding `contents`.
        package init(name: String, contents: [UInt8]) {
            self.name = name
            self.contents = contents
        }
    }

    /// How a build ended.
    package enum Outcome: Equatable, Sendable {
        /// The program was already built: nothing was compiled.
        case cached(path: String)
        /// Compiled now, in these real seconds (or compiled at the same time
        /// by another opscope, whose program `path` is).
        case built(path: String, seconds: Double)
        /// The compiler refused: what it wrote (standard error, then
        /// standard output), whole, and its exit status (128 + a signal).
        case failed(diagnostics: String, exitStatus: Int32)
        /// The compiler had not finished after this many seconds.
        case timedOut(afterSeconds: Double)
        /// opscope was asked to stop while the compiler ran (`StopRequest`).
        case stopped
        /// No build could be tried: the compiler would not start, or the
        /// cache folder cannot be written. A sentence saying which.
        case unavailable(reason: String)
    }

    /// The compiler that builds (never asked again on a cache hit).
    package let compiler: SwiftCompiler
    /// The compiler's `version()`, asked once by the caller.
    package let compilerVersion: String
    /// The cache folder (`cacheRoot(environment:)`); builds go in `builds/`.
    package let cacheRoot: String
    /// Seconds a compile may take before it is stopped.
    package let timeout: Double

    /// Builds with `compiler`, whose `version()` is `compilerVersion`,
    /// keeping programs under `cacheRoot`.
    package init(compiler: SwiftCompiler, compilerVersion: String, cacheRoot: String, timeout: Double = 300) {
        self.compiler = compiler
        self.compilerVersion = compilerVersion
        self.cacheRoot = cacheRoot
        self.timeout = timeout
    }

    /// `$XDG_CACHE_HOME/opscope`, else `$HOME/.cache/opscope` (the XDG base
    /// directory rules: a relative XDG_CACHE_HOME is ignored); nil when
    /// `environment` has neither.
    package static func cacheRoot(environment: [String: String]) -> String? {
        UserFolders.cache(environment: environment)
    }

    /// Changes whenever the way a build is made changes (the fixed flags,
    /// how files are written), so no older build is taken for a newer one.
    private static let recipe = "opscope swift build 1: \(fixedFlags), #sourceLocation"

    /// Diagnostics with the source line and a caret under the column (the
    /// form `file:line:col: error:` a reader expects), and every file's
    /// errors, not only the first failing file's.
    private static let fixedFlags = ["-diagnostic-style=llvm", "-continue-building-after-errors"]

    /// The SHA-256 of the recipe, the compiler's version, the flags and
    /// each source's name and bytes, every field preceded by its length so
    /// that no two different inputs read the same.
    package func key(_ sources: [Source], flags: [String]) -> String {
        var hasher = SHA256Hasher()
        func field(_ bytes: some Collection<UInt8>) {
            count(bytes.count)
            hasher.update(bytes)
        }
        func count(_ number: Int) {
            hasher.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(number) >> ($0 * 8)) })
        }
        field(Array(Self.recipe.utf8))
        field(Array(compilerVersion.utf8))
        count(flags.count)
        for flag in flags { field(Array(flag.utf8)) }
        count(sources.count)
        for source in sources {
            field(Array(source.name.utf8))
            field(source.contents)
        }
        return hasher.finalize()
    }

    /// Where the program built from these inputs is, or will be.
    package func productPath(_ sources: [Source], flags: [String]) -> String {
        "\(cacheRoot)/builds/\(key(sources, flags: flags))/program"
    }

    /// The program made of `sources` with `flags` (e.g. `["-O"]`): the
    /// kept one when there is one, else compiled now. A `stop` asked for
    /// meanwhile ends the compile at once (`ChildProcess`).
    package func build(_ sources: [Source], flags: [String], stop: StopRequest? = nil) -> Outcome {
        keep(key(sources, flags: flags), as: "program", isKept: SwiftCompiler.isExecutableFile) { scratch in
            let said: String
            switch compile(sources, flags + ["-o", scratch + "/program"], in: scratch, stop: stop) {
            case .ended(let outcome): return outcome
            case .succeeded(let words): said = words
            }
            guard SwiftCompiler.isExecutableFile(scratch + "/program") else {
                return .failed(diagnostics: said + "\(compiler.path) wrote no program\n", exitStatus: 0)
            }
            return nil
        }
    }

    /// Type-checks `sources` with `flags` (`-typecheck`: nothing is built).
    /// Kept like a program: a check that passed leaves a mark under its
    /// key, and the same inputs later pass at once (`.cached`, the mark's
    /// path); a failed one is not kept.
    package func typecheck(_ sources: [Source], flags: [String], stop: StopRequest? = nil) -> Outcome {
        let allFlags = ["-typecheck"] + flags
        return keep(key(sources, flags: allFlags), as: "typechecked", isKept: FileManager.default.fileExists) {
            scratch in
            if case .ended(let outcome) = compile(sources, allFlags, in: scratch, stop: stop) { return outcome }
            guard FileManager.default.createFile(atPath: scratch + "/typechecked", contents: Data()) else {
                return .unavailable(reason: "cannot write \(scratch)/typechecked")
            }
            return nil
        }
    }

    /// The frame of every build: what is kept under `key` as `name`, when
    /// `isKept` finds it; else `make` makes it in a scratch folder of its
    /// own (returning nil when it did, or how it ended), which is then put
    /// in place whole, so that nothing half made is ever found. A scratch
    /// folder not put in place is removed.
    private func keep(
        _ key: String, as name: String, isKept: (String) -> Bool, make: (_ scratch: String) -> Outcome?
    ) -> Outcome {
        let builds = cacheRoot + "/builds"
        let folder = "\(builds)/\(key)"
        let product = folder + "/" + name
        if isKept(product) { return .cached(path: product) }
        let began = DispatchTime.now().uptimeNanoseconds
        let scratch: String
        switch Self.makeScratchFolder(in: builds, key: key) {
        case .success(let made): scratch = made
        case .failure(let why): return .unavailable(reason: why.description)
        }
        var keepScratch = false
        defer { if !keepScratch { try? FileManager.default.removeItem(atPath: scratch) } }
        if let ended = make(scratch) { return ended }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        switch Self.install(scratch, at: folder, in: builds) {
        case .success(let ours):
            keepScratch = ours
            return .built(path: product, seconds: seconds)
        case .failure(let why):
            return .unavailable(reason: why.description)
        }
    }

    /// How a compile went: it succeeded, with what the compiler said (its
    /// warnings), or ended the build.
    private enum Compiled {
        case succeeded(said: String)
        case ended(Outcome)
    }

    /// Writes `sources` into `scratch` and runs the compiler there with
    /// `arguments` and the files.
    private func compile(_ sources: [Source], _ arguments: [String], in scratch: String, stop: StopRequest?)
        -> Compiled
    {
        var paths: [String] = []
        for (index, source) in sources.enumerated() {
            let subfolder = "\(scratch)/src/\(index)"
            let path = subfolder + "/" + Self.fileName(source.name, index: index)
            do {
                try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
                try Data(Self.namedContents(source)).write(to: URL(fileURLWithPath: path))
            } catch {
                return .ended(.unavailable(reason: "cannot write \(path): \(error.localizedDescription)"))
            }
            paths.append(path)
        }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                compiler.path, Self.fixedFlags + arguments + paths, workingDirectory: scratch, timeout: timeout,
                stop: stop)
        } catch {
            return .ended(.unavailable(reason: "\(error)"))
        }
        let said = String(decoding: outcome.stderr + outcome.stdout, as: UTF8.self)
        switch outcome.status {
        case .timedOut(let seconds): return .ended(.timedOut(afterSeconds: seconds))
        case .stopped: return .ended(.stopped)
        case .signalled(let signal): return .ended(.failed(diagnostics: said, exitStatus: 128 + signal))
        case .exited(let status) where status != 0: return .ended(.failed(diagnostics: said, exitStatus: status))
        case .exited: return .succeeded(said: said)
        }
    }

    private struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// How old a scratch folder (`.building-…`, `.discarded-…`) must be to
    /// be taken for one a crashed or killed build left: far longer than a
    /// compile may take (`timeout`), so no build under way loses its own.
    package static let staleAfter: TimeInterval = 3600

    /// A new empty folder in `builds` (made when missing), named for the
    /// key; scratch folders left there by builds that never ended go first.
    private static func makeScratchFolder(in builds: String, key: String) -> Result<String, Problem> {
        do {
            try FileManager.default.createDirectory(atPath: builds, withIntermediateDirectories: true)
        } catch {
            return .failure(
                Problem(description: "cannot make the build cache \(builds): \(error.localizedDescription)"))
        }
        removeStaleScratch(in: builds)
        var template = Array("\(builds)/.building-\(key.prefix(16))-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            return .failure(
                Problem(description: "cannot make a folder in \(builds): \(String(cString: strerror(errno)))"))
        }
        return .success(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Removes the scratch folders in `builds` last changed more than
    /// `staleAfter` before `now`.
    package static func removeStaleScratch(in builds: String, now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: builds)) ?? []
        for name in names where name.hasPrefix(".building-") || name.hasPrefix(".discarded-") {
            let path = builds + "/" + name
            guard let changed = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(changed) > staleAfter
            else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Renames the finished `scratch` folder to `folder`. When `folder`
    /// already holds a program (another opscope's, built at the same time),
    /// that one is kept; when it holds none (a build cut short long ago),
    /// it is set aside and removed first. Success says whether `scratch`
    /// is now the cache's.
    private static func install(_ scratch: String, at folder: String, in builds: String) -> Result<Bool, Problem> {
        for _ in 0..<3 {
            if rename(scratch, folder) == 0 { return .success(true) }
            let why = errno
            guard why == EEXIST || why == ENOTEMPTY else {
                return .failure(
                    Problem(description: "cannot rename \(scratch) to \(folder): \(String(cString: strerror(why)))"))
            }
            if SwiftCompiler.isExecutableFile(folder + "/program") { return .success(false) }
            let aside = "\(builds)/.discarded-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if rename(folder, aside) == 0 { try? FileManager.default.removeItem(atPath: aside) }
        }
        return .failure(Problem(description: "cannot put the program in \(folder): it keeps changing"))
    }

    /// The file's name for the compiler: the last part of `name`.
    private static func fileName(_ name: String, index: Int) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty || last == "." || last == ".." ? "source\(index).swift" : last
    }

    /// The bytes written for `source`: its own, after a `#sourceLocation`
    /// line that makes diagnostics (and `#filePath`) give its name and its
    /// own line numbers. A byte-order mark or a `#!` line stays first. A
    /// name the directive cannot spell (a quote, a line break) gets no
    /// directive: diagnostics then name the copy.
    private static func namedContents(_ source: Source) -> [UInt8] {
        let name = source.name
        guard !name.contains(where: { $0 == "\"" || $0.isNewline }) else { return source.contents }
        var contents = source.contents[...]
        var result: [UInt8] = []
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if contents.starts(with: mark) {
            result += mark
            contents = contents.dropFirst(3)
        }
        var line = 1
        if contents.starts(with: Array("#!".utf8)) {
            let end = contents.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? contents.endIndex
            result += contents[..<end]
            if end == contents.endIndex { result.append(UInt8(ascii: "\n")) }
            contents = contents[end...]
            line = 2
        }
        result += Array("#sourceLocation(file: \"\(name)\", line: \(line))\n".utf8)
        result += contents
        return result
    }
}
