import Foundation
import Testing

@testable import Practice

/// The practice file in a folder of the test's own: never the user's.
@Suite("the practice file")
struct PracticeStoreTests {
    static let now = Date(timeIntervalSince1970: 1_796_134_502)  // 2026-12-01 14:15:02 UTC

    /// A fresh data folder (as XDG_DATA_HOME would be), removed after `body`.
    static func withStore(_ body: (PracticeStore, String) throws -> Void) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-practice-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let folder = try #require(PracticeStore.folder(environment: ["XDG_DATA_HOME": data]))
        try body(PracticeStore(folder: folder), folder)
    }

    static let record = PracticeRecord(questions: [
        QuestionRecord(
            id: .library(file: "05-priority.ops"), concepts: [.priority, .suspension], answers: 3, rights: 2,
            streak: 1, lastAnswered: now, due: now.addingTimeInterval(86_400)),
        QuestionRecord(
            id: .generated(level: 2, seed: 17), concepts: [.qos], answers: 1, rights: 0, streak: 0,
            lastAnswered: now, due: now.addingTimeInterval(600)),
    ])

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test(
        "the folder: XDG_DATA_HOME, else ~/.local/share; a relative XDG_DATA_HOME is ignored",
        arguments: [
            (["XDG_DATA_HOME": "/d", "HOME": "/h"], "/d/opscope"),
            (["XDG_DATA_HOME": "/d/", "HOME": "/h"], "/d/opscope"),
            (["XDG_DATA_HOME": "rel", "HOME": "/h"], "/h/.local/share/opscope"),
            (["XDG_DATA_HOME": "", "HOME": "/h"], "/h/.local/share/opscope"),
            (["HOME": "/h"], "/h/.local/share/opscope"),
        ])
    func folder(_ environment: [String: String], _ expected: String) {
        #expect(PracticeStore.folder(environment: environment) == expected)
    }

    @Test("no HOME and no XDG_DATA_HOME: no folder")
    func noFolder() {
        #expect(PracticeStore.folder(environment: [:]) == nil)
        #expect(PracticeStore.folder(environment: ["HOME": ""]) == nil)
    }

    @Test("a missing file is a fresh record, and nothing is written by reading")
    func missing() throws {
        try Self.withStore { store, folder in
            let loaded = store.load(now: Self.now)
            #expect(loaded.record == PracticeRecord())
            #expect(loaded.messages.isEmpty)
            #expect(loaded.canSave)
            #expect(!FileManager.default.fileExists(atPath: folder))
        }
    }

    @Test("a saved record reads back the same, as indented JSON with its format and version")
    func roundTrip() throws {
        try Self.withStore { store, folder in
            try store.save(Self.record)
            #expect(store.load(now: Self.now).record == Self.record)
            let text = try String(contentsOfFile: store.path, encoding: .utf8)
            #expect(text.hasPrefix("{\n  \"format\" : \"opscope-practice\",\n"))
            #expect(text.contains("\"id\" : \"generated:2:17\""))
            #expect(text.contains("\"due\" : \"2026-12-02T14:15:02Z\""))
            #expect(text.hasSuffix("  \"version\" : 1\n}\n"))
            // Nothing but the file is left in the folder: no temporary file.
            #expect(Self.files(folder) == ["practice.json"])
        }
    }

    static let badFiles: [(String, [UInt8])] = [
        ("not JSON", Array("{\"format\": \"opscope-practice\", \"vers".utf8)),
        ("not UTF-8", [0xFF, 0xFE, 0x00, 0x7B]),
        ("another format", Array("{\"format\": \"something\", \"version\": 1, \"questions\": []}".utf8)),
        ("a newer version", Array("{\"format\": \"opscope-practice\", \"version\": 9, \"questions\": []}".utf8)),
        (
            "impossible counts",
            Array(
                ("{\"format\": \"opscope-practice\", \"version\": 1, \"questions\": [{\"id\": \"library:a.ops\", "
                    + "\"concepts\": [], \"answers\": 1, \"rights\": 5, \"streak\": 0, "
                    + "\"lastAnswered\": \"2026-12-01T14:15:02Z\", \"due\": \"2026-12-01T14:15:02Z\"}]}").utf8)
        ),
        ("empty", []),
    ]

    @Test("a file that is not a record is set aside, bytes untouched, and a fresh record begins", arguments: badFiles)
    func setAside(_ what: String, _ bytes: [UInt8]) throws {
        try Self.withStore { store, folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: store.path))
            let loaded = store.load(now: Self.now)
            #expect(loaded.record == PracticeRecord())
            #expect(loaded.canSave)
            let aside = store.path + ".corrupt-20261201T141502Z"
            #expect(Self.files(folder) == ["practice.json.corrupt-20261201T141502Z"])
            #expect(FileManager.default.contents(atPath: aside) == Data(bytes), "\(what)")
            #expect(loaded.messages.count == 1)
            #expect(loaded.messages.first?.contains("it was set aside as '\(aside)', untouched") == true)
            // The next save writes a new file and leaves the old one be.
            try store.save(Self.record)
            #expect(FileManager.default.contents(atPath: aside) == Data(bytes))
            #expect(store.load(now: Self.now).record == Self.record)
        }
    }

    @Test("a newer file's message says so")
    func newerVersion() throws {
        try Self.withStore { store, folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("{\"format\": \"opscope-practice\", \"version\": 2}".utf8).write(
                to: URL(fileURLWithPath: store.path))
            let message = store.load(now: Self.now).messages.first ?? ""
            #expect(message.contains("was written by a newer opscope (version 2 of the file)"))
        }
    }

    @Test("a folder where the file should be is set aside too")
    func folderInTheWay() throws {
        try Self.withStore { store, folder in
            try FileManager.default.createDirectory(atPath: store.path + "/inside", withIntermediateDirectories: true)
            let loaded = store.load(now: Self.now)
            #expect(loaded.canSave)
            #expect(loaded.messages.first?.contains("cannot be read") == true)
            #expect(FileManager.default.fileExists(atPath: store.path + ".corrupt-20261201T141502Z/inside"))
        }
    }

    @Test("two files set aside in the same second keep both")
    func twiceInOneSecond() throws {
        try Self.withStore { store, folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for text in ["first", "second"] {
                try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
                _ = store.load(now: Self.now)
            }
            #expect(
                Self.files(folder) == [
                    "practice.json.corrupt-20261201T141502Z", "practice.json.corrupt-20261201T141502Z-2",
                ])
            #expect(
                FileManager.default.contents(atPath: store.path + ".corrupt-20261201T141502Z") == Data("first".utf8))
        }
    }

    @Test("reset sets the file aside and says where; with no file, nothing")
    func reset() throws {
        try Self.withStore { store, folder in
            #expect(try store.reset(now: Self.now) == nil)
            try store.save(Self.record)
            let bytes = FileManager.default.contents(atPath: store.path)
            let aside = try store.reset(now: Self.now)
            #expect(aside == store.path + ".reset-20261201T141502Z")
            #expect(FileManager.default.contents(atPath: aside ?? "") == bytes)
            #expect(!FileManager.default.fileExists(atPath: store.path))
        }
    }

    @Test("an update applies its change to the file as it is now, and writes it")
    func update() throws {
        try Self.withStore { store, _ in
            try store.save(Self.record)
            let updated = try store.update(now: Self.now) { record in
                PracticeScheduler.recording(
                    right: true, for: .library(file: "01-chain.ops"), concepts: [.dependencies], in: record,
                    now: Self.now)
            }
            #expect(updated.record.questions.count == 3)
            #expect(store.load(now: Self.now).record == updated.record)
        }
    }

    @Test("a reader never sees a part of a write: every read of a file rewritten 200 times is a whole record")
    func atomicWrites() throws {
        try Self.withStore { store, folder in
            try store.save(Self.record)
            let small = PracticeRecord(questions: Array(Self.record.questions.prefix(1)))
            let writer = Thread {
                for i in 0..<200 { try? store.save(i % 2 == 0 ? small : Self.record) }
            }
            writer.start()
            var reads = 0
            while !writer.isFinished || reads < 200 {
                let result = PracticeStore.decode(FileManager.default.contents(atPath: store.path))
                guard case .success(let record) = result else {
                    Issue.record("a read saw a part of a write")
                    return
                }
                #expect(record == small || record == Self.record)
                reads += 1
            }
            #expect(Self.files(folder) == ["practice.json"])
        }
    }

    @Test("a file written without replacing is never written over")
    func noReplace() throws {
        try Self.withStore { _, folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/mine.ops"
            try AtomicFile.write(Array("one".utf8), to: path, replacing: false)
            #expect(throws: FileWriteError(message: "'\(path)' already exists", exists: true)) {
                try AtomicFile.write(Array("two".utf8), to: path, replacing: false)
            }
            #expect(FileManager.default.contents(atPath: path) == Data("one".utf8))
            #expect(Self.files(folder) == ["mine.ops"])
        }
    }

    @Test("a write into a folder that cannot hold it fails with the reason and leaves nothing")
    func failedWrite() throws {
        try Self.withStore { _, folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("a file".utf8).write(to: URL(fileURLWithPath: folder + "/plain"))
            #expect(throws: FileWriteError.self) {
                try AtomicFile.write(Array("x".utf8), to: folder + "/plain/inside.json", replacing: true)
            }
            #expect(Self.files(folder) == ["plain"])
        }
    }
}
