import Foundation

/// Why a file could not be written: one sentence that names the path.
public struct FileWriteError: Error, Sendable, Equatable {
    public var message: String
    /// The file was there already, and was left as it was.
    public var exists = false
}

/// Writes files whole or not at all.
///
/// The bytes go to a temporary file in the same folder (so that the last
/// step stays within one file system), which is flushed to the disk
/// (`fsync`) and then given the file's name in one step: `rename` when an
/// old file may be replaced, `link` when it may not (it fails when the
/// name is taken, so a file that is there is never touched, even one that
/// appears meanwhile). The folder is flushed too, so that the new name
/// survives a crash. A reader sees the old file or the new one, never a
/// part.
public enum AtomicFile {
    public static func write(
        _ bytes: [UInt8], to path: String, replacing: Bool, permissions: mode_t = 0o644
    ) throws(FileWriteError) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        let name = (path as NSString).lastPathComponent
        let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw failure("cannot write in '\(directory)'") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let error = failure("cannot write '\(path)'")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let error = failure("cannot flush '\(path)' to the disk")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        defer { unlink(temporary) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw failure("cannot write '\(path)'") }
        } else if link(temporary, path) != 0 {
            if errno == EEXIST { throw FileWriteError(message: "'\(path)' already exists", exists: true) }
            throw failure("cannot write '\(path)'")
        }
        let folderDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// `what: reason` from `errno`.
    static func failure(_ what: String) -> FileWriteError {
        FileWriteError(message: "\(what): \(String(cString: strerror(errno)))")
    }
}
