import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Waits, on a thread of its own, for one file to be saved, and calls
/// `onChange` (on that thread) once per burst of saves (`SaveDebouncer`).
///
/// File events come from the kernel where it can give them (inotify):
/// the file's *directory* is watched for a file of that name closed after
/// writing, moved in or out, created, written or removed, since an editor
/// that saves by writing a new file and renaming it over the old one
/// leaves a watch on the old file itself watching a file nobody sees any
/// more. A file created or written is still being written: the burst
/// waits for its writer to close it (`SaveDebouncer`). Where inotify cannot
/// be had (no such kernel, no watch left), the file is looked at every
/// `pollInterval` seconds instead: a change of its size, times or inode is
/// a save.
///
/// The thread sleeps in `poll(2)` between events: a watch costs no CPU
/// while nothing is saved. `stop()` ends it.
package final class FileWatch: Sendable {
    /// How saves are seen.
    package enum Mechanism: String, Sendable, Equatable {
        /// inotify: at once.
        case kernel
        /// A look at the file every `pollInterval` seconds.
        case polling
    }

    package let mechanism: Mechanism
    /// The pipe's write end: a byte written there wakes the thread to end.
    private let stopWrite: Int32
    private let stopped = Atomic<Bool>(false)

    private init(mechanism: Mechanism, stopWrite: Int32) {
        self.mechanism = mechanism
        self.stopWrite = stopWrite
    }

    /// Starts watching `path`; nil when not even a pipe can be made.
    /// `polling` forces the fallback (for tests, and for file systems that
    /// give no events: a network mount).
    package static func start(
        _ path: String, debouncer: SaveDebouncer = SaveDebouncer(), pollInterval: Double = 0.25,
        polling: Bool = false, onChange: @escaping @Sendable () -> Void
    ) -> FileWatch? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let targets = WatchedNames(path)
        let kernel = polling ? nil : KernelEvents(targets)
        let watch = FileWatch(mechanism: kernel == nil ? .polling : .kernel, stopWrite: fds[1])
        let loop = WatchLoop(
            path: path, kernel: kernel, stopRead: fds[0], debouncer: debouncer, pollInterval: pollInterval,
            onChange: onChange)
        let thread = Thread { loop.run() }
        thread.name = "opscope file watch"
        thread.start()
        return watch
    }

    /// Ends the watch: no `onChange` starts after this returns, but one
    /// already running finishes.
    package func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        var byte: UInt8 = 1
        _ = write(stopWrite, &byte, 1)
        close(stopWrite)
    }

    deinit { stop() }
}

/// The names that count as the file: its own name in its folder, and,
/// when the path is a symbolic link, the name of the file it leads to in
/// that file's folder (an edit of the target is a save too).
struct WatchedNames: Sendable {
    /// Folder → the names in it that are the file.
    var folders: [String: Set<String>] = [:]

    init(_ path: String) {
        add(path)
        if let resolved = realpath(path, nil) {
            add(String(cString: resolved))
            free(resolved)
        }
    }

    private mutating func add(_ path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        folders[folder.isEmpty ? "." : folder, default: []].insert((path as NSString).lastPathComponent)
    }
}

/// An inotify descriptor watching the folders of `WatchedNames`.
final class KernelEvents: @unchecked Sendable {
    // Owned by the watch's thread once the loop runs: nothing else reads
    // or writes it.
    let descriptor: Int32
    /// Watch descriptor → its folder, and the names in it that are the file.
    private let names: [Int32: (folder: String, files: Set<String>)]

    /// What the events read at one time said of the file.
    enum Seen: Equatable {
        case nothing
        /// The last of them left it whole (closed after writing, moved in
        /// or out, removed, or made anything but a regular file), or the
        /// kernel dropped events.
        case settled
        /// The last of them left it being written (created as a regular
        /// file, or written).
        case beingWritten
    }

    init?(_ targets: WatchedNames) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        var names: [Int32: (folder: String, files: Set<String>)] = [:]
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM)
        for (folder, files) in targets.folders {
            let wd = inotify_add_watch(fd, folder, mask)
            guard wd >= 0 else {
                close(fd)
                return nil
            }
            names[wd, default: (folder, [])].files.formUnion(files)
        }
        descriptor = fd
        self.names = names
    }

    deinit { close(descriptor) }

    /// Reads the events waiting: what the last one about the file said.
    func readSaves() -> Seen {
        var seen = Seen.nothing
        // Room for many events; each is a 16-byte header and its name.
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return seen }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + header)..<min(count, offset + header + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        seen = .settled
                    } else if let watched = names[wd], watched.files.contains(name) {
                        seen = Self.leaves(mask, (watched.folder as NSString).appendingPathComponent(name))
                    }
                    offset += header + length
                }
            }
        }
    }

    /// What an event of `mask` leaves at `path`: a regular file created
    /// or written is still being written.
    private static func leaves(_ mask: UInt32, _ path: String) -> Seen {
        if mask & UInt32(IN_MODIFY) != 0 { return .beingWritten }
        guard mask & UInt32(IN_CREATE) != 0, mask & UInt32(IN_ISDIR) == 0 else { return .settled }
        var info = stat()
        guard lstat(path, &info) == 0 else { return .settled }
        return info.st_mode & S_IFMT == S_IFREG ? .beingWritten : .settled
    }
}

/// The watch's thread: waits for events (or the next look at the file),
/// feeds them to the debouncer, and calls `onChange` when a burst is over.
private final class WatchLoop: @unchecked Sendable {
    // Made before the thread starts, then used by that thread alone.
    private let path: String
    private let kernel: KernelEvents?
    private let stopRead: Int32
    private var debouncer: SaveDebouncer
    private let pollInterval: Double
    private let onChange: @Sendable () -> Void

    init(
        path: String, kernel: KernelEvents?, stopRead: Int32, debouncer: SaveDebouncer, pollInterval: Double,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.path = path
        self.kernel = kernel
        self.stopRead = stopRead
        self.debouncer = debouncer
        self.pollInterval = pollInterval
        self.onChange = onChange
    }

    /// Monotonic seconds.
    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func run() {
        defer { close(stopRead) }
        var signature = FileSignature(path)
        var nextLook = Self.now() + pollInterval
        var fds = [pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
        if let kernel { fds.append(pollfd(fd: kernel.descriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let now = Self.now()
            var wake = debouncer.deadline
            if kernel == nil { wake = min(wake ?? nextLook, nextLook) }
            let timeout = wake.map { Int32(max(0, min(60_000, ($0 - now) * 1000)).rounded(.up)) } ?? -1
            for i in fds.indices { fds[i].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return }
            if fds[0].revents != 0 { return }
            if let kernel, fds.count > 1, fds[1].revents != 0 {
                let seen = kernel.readSaves()
                if seen != .nothing { debouncer.changed(at: Self.now(), settled: seen == .settled) }
            }
            if kernel == nil, Self.now() >= nextLook {
                let seen = FileSignature(path)
                if seen != signature { debouncer.changed(at: Self.now()) }
                signature = seen
                nextLook = Self.now() + pollInterval
            }
            if debouncer.take(at: Self.now()) { onChange() }
        }
    }
}

/// What a look at the file sees: a save changes one of these (a rename
/// over it, the inode; a write, the size or the modification time).
struct FileSignature: Equatable, Sendable {
    var exists = false
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: (Int, Int) = (0, 0)
    var changed: (Int, Int) = (0, 0)

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        exists = true
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        changed = (Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec))
    }

    static func == (a: FileSignature, b: FileSignature) -> Bool {
        a.exists == b.exists && a.inode == b.inode && a.size == b.size && a.modified == b.modified
            && a.changed == b.changed
    }
}
