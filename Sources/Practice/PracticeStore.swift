import Foundation
import TextKit

/// The practice file, `practice.json` in the user's data folder: read
/// whatever state it is in, written only whole.
///
/// A missing file is a fresh start. A file that cannot be read, is not a
/// practice record, or was written by a newer opscope is never written
/// over: it is set aside under a name of its own (`practice.json.corrupt-`
/// and the UTC time), bytes untouched, a message says where, and a fresh
/// record begins. If it cannot even be set aside, this session keeps its
/// answers to itself (`Loaded.canSave` false). Every write is atomic
/// (`AtomicFile`), and `update` holds a lock beside the file from its read
/// to its write, so that two sessions at once lose no answer.
public struct PracticeStore: Sendable {
    /// Why an answer was not kept when the file says nothing more.
    public static let cannotWrite = "the practice file cannot be written"

    public static let fileName = "practice.json"

    /// The folder of the file (`…/opscope`).
    public let folder: String
    public var path: String { folder + "/" + Self.fileName }

    public init(folder: String) { self.folder = folder }

    /// `$XDG_DATA_HOME/opscope`, else `$HOME/.local/share/opscope` (the XDG
    /// base directory rules: a relative XDG_DATA_HOME is ignored); nil when
    /// `environment` has neither.
    public static func folder(environment: [String: String]) -> String? {
        UserFolders.data(environment: environment)
    }

    /// A record as read, and what happened to a file that could not be.
    public struct Loaded: Sendable {
        public var record: PracticeRecord
        /// Sentences for standard error: where a bad file was set aside.
        public var messages: [String]
        /// False when a bad file is still in place: nothing may be written.
        public var canSave: Bool
    }

    /// Reads the record (see the type's comment for a missing or bad file).
    public func load(now: Date) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else {
            return Loaded(record: PracticeRecord(), messages: [], canSave: true)
        }
        let problem: String
        switch Self.decode(FileManager.default.contents(atPath: path)) {
        case .success(let record): return Loaded(record: record, messages: [], canSave: true)
        case .failure(let why): problem = why.clause
        }
        switch setAside(as: "corrupt", now: now) {
        case .success(let aside):
            return Loaded(
                record: PracticeRecord(),
                messages: [
                    "your practice file '\(path)' \(problem): it was set aside as '\(aside)', untouched, "
                        + "and a fresh record begins"
                ], canSave: true)
        case .failure(let error):
            return Loaded(
                record: PracticeRecord(),
                messages: [
                    "your practice file '\(path)' \(problem), and it could not be set aside (\(error.message)): "
                        + "it is left as it is, and this session's answers will not be kept"
                ], canSave: false)
        }
    }

    /// The record in `data`, or why it is not one (a clause: `is not JSON`).
    static func decode(_ data: Data?) -> Result<PracticeRecord, DecodeProblem> {
        guard let data else { return .failure(DecodeProblem("cannot be read")) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(DecodeProblem("is not a JSON object"))
        }
        guard object["format"] as? String == PracticeRecord.formatName, let version = object["version"] as? Int else {
            return .failure(DecodeProblem("is not an opscope practice record"))
        }
        guard version <= PracticeRecord.currentVersion else {
            return .failure(DecodeProblem("was written by a newer opscope (version \(version) of the file)"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let record = try? decoder.decode(PracticeRecord.self, from: data),
            record.questions.allSatisfy(\.isConsistent), Set(record.questions.map(\.id)).count == record.questions.count
        else { return .failure(DecodeProblem("is damaged (an entry cannot be read)")) }
        return .success(record)
    }

    struct DecodeProblem: Error {
        var clause: String
        init(_ clause: String) { self.clause = clause }
    }

    /// The record's bytes as written: sorted keys, indented, one line each.
    public static func encode(_ record: PracticeRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(record)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    /// Writes `record` atomically, making the folder if need be.
    public func save(_ record: PracticeRecord) throws(FileWriteError) {
        try makeFolder()
        try AtomicFile.write(Self.encode(record), to: path, replacing: true)
    }

    /// Reads the record under the lock, applies `change` and writes it
    /// back (when it may be written): the file's latest state, not the one
    /// read at the session's start. Returns the record and the messages of
    /// the read.
    public func update(
        now: Date, _ change: (PracticeRecord) -> PracticeRecord
    ) throws(FileWriteError) -> Loaded {
        try makeFolder()
        let lock = open(folder + "/practice.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                _ = flock(lock, LOCK_UN)
                close(lock)
            }
        }
        var loaded = load(now: now)
        loaded.record = change(loaded.record)
        if loaded.canSave { try save(loaded.record) }
        return loaded
    }

    /// Sets the file aside as `practice.json.reset-<UTC time>` and returns
    /// that path; nil when there was no file.
    public func reset(now: Date) throws(FileWriteError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try setAside(as: "reset", now: now).get()
    }

    /// Renames the file to `practice.json.<why>-<UTC time>` (with `-2`, `-3`
    /// … if that is taken), never over another file.
    func setAside(as why: String, now: Date) -> Result<String, FileWriteError> {
        let stamp = Self.stamp(now)
        for n in 1...100 {
            let aside = "\(path).\(why)-\(stamp)" + (n == 1 ? "" : "-\(n)")
            if link(path, aside) == 0 {
                unlink(path)
                return .success(aside)
            }
            if errno == EEXIST { continue }
            // A file system without hard links, or a folder in place of the
            // file: a rename, once nothing has the name.
            guard !FileManager.default.fileExists(atPath: aside) else { continue }
            if rename(path, aside) == 0 { return .success(aside) }
            return .failure(AtomicFile.failure("cannot rename '\(path)'"))
        }
        return .failure(FileWriteError(message: "too many files set aside beside '\(path)'"))
    }

    /// `20261201T141502Z`.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    private func makeFolder() throws(FileWriteError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(message: "cannot make the folder '\(folder)': \(Self.why(folder, error))")
        }
    }

    /// Why `folder` could not be made, as a person would check it: the
    /// nearest part of its path that exists is a file, or a folder that
    /// cannot be written in; else the system's own words.
    private static func why(_ folder: String, _ error: any Error) -> String {
        var path = (folder as NSString).deletingLastPathComponent
        while !path.isEmpty {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                if !isFolder.boolValue { return "'\(path)' is a file, not a folder" }
                if access(path, W_OK) != 0 { return "'\(path)' cannot be written in" }
                break
            }
            if path == "/" { break }
            path = (path as NSString).deletingLastPathComponent
        }
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
