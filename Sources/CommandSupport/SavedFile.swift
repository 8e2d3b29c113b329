import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A watched file as one read finds it: its bytes, a file still changing
/// while it was read, or why there is nothing to read.
///
/// Read with `open`, `fstat` and `read` rather than `FileManager`: a
/// folder, a FIFO or a device in the file's place is told as such, and
/// never read (a FIFO would block the read for good); the same file's
/// size and times before and after the read tell a file written
/// meanwhile.
enum SavedFile: Equatable {
    case bytes([UInt8])
    /// Its size, times or inode changed while it was read, or it is
    /// another file now: the save is not over, and the writer's next
    /// events bring another read.
    case changing
    /// Nothing to read, and why.
    case unreadable(Unreadable)

    static func read(_ path: String) -> SavedFile {
        if let reason = unreadable(path) { return .unreadable(reason) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            // Gone or changed between the look and the open.
            let error = errno
            return error == ENOENT || error == ELOOP
                ? (unreadable(path).map(SavedFile.unreadable) ?? .changing) : .unreadable(.cannotRead(error))
        }
        defer { close(fd) }
        var before = stat()
        guard fstat(fd, &before) == 0 else { return .unreadable(.cannotRead(errno)) }
        guard before.st_mode & S_IFMT == S_IFREG else { return .unreadable(unreadable(path) ?? .notAFile) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, before.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .unreadable(.cannotRead(errno))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        var after = stat()
        var named = stat()
        guard fstat(fd, &after) == 0, stat(path, &named) == 0, Signature(before) == Signature(after),
            Signature(after) == Signature(named), bytes.count == Int(after.st_size)
        else { return .changing }
        return .bytes(bytes)
    }

    /// Why `path` has nothing to read, looked at without opening it; nil
    /// when it is a regular file (or a link to one).
    static func unreadable(_ path: String) -> Unreadable? {
        var link = stat()
        guard lstat(path, &link) == 0 else { return errno == ENOENT ? .removed : .cannotRead(errno) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ELOOP: return .linkLoop
            case ENOENT: return .linkToNothing
            default: return .cannotRead(errno)
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .directory
        default: return .notAFile
        }
    }

    /// What a write or a rename changes.
    private struct Signature: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int]
        var changed: [Int]

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
        }
    }
}

/// Why a watched file has nothing to read at a save.
package enum Unreadable: Sendable, Equatable {
    /// No file of that name any more.
    case removed
    /// A symbolic link that leads back to itself.
    case linkLoop
    /// A symbolic link to a name with no file.
    case linkToNothing
    case directory
    /// A FIFO, a socket or a device: never read (a FIFO would block).
    case notAFile
    /// The system refused it: the `errno`.
    case cannotRead(Int32)

    /// `mine.ops was removed`, for the file called `name`.
    package func text(_ name: String) -> String {
        switch self {
        case .removed: "\(name) was removed"
        case .linkLoop: "\(name) is a symbolic link in a loop"
        case .linkToNothing: "\(name) is a symbolic link to nothing"
        case .directory: "\(name) is a directory now"
        case .notAFile: "\(name) is not a regular file now"
        case .cannotRead(let error): "cannot read \(name): \(String(cString: strerror(error)))"
        }
    }
}
