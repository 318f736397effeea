#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open POSIX file descriptor, closed in `deinit`. Thread rule: one owner; `pread` keeps reads position-free.
final class FileDescriptor {
    let raw: Int32

    /// Opens `path` read-only, mapping `errno` to ``AudioDecodeError``.
    init(path: String) throws(AudioDecodeError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, message: String(cString: strerror(code)))
        }
        raw = descriptor
    }

    deinit { close(raw) }
}

/// The bytes of one input, either a regular file read on demand or a buffer in memory, with a read position that
/// libsndfile's and FFmpeg's I/O callbacks move. Thread rule: one decode at a time; not `Sendable`.
final class ByteSource {
    private enum Storage {
        case file(FileDescriptor)
        case memory([UInt8])
    }

    /// The path or name shown in errors.
    let name: String
    /// Total size in bytes.
    let length: Int
    /// Read position for the C libraries' callbacks.
    var position = 0
    /// The system's message for the first failed read, if any.
    private(set) var readFailure: String?
    private let storage: Storage

    /// Wraps bytes already in memory (standard input, tests).
    init(bytes: [UInt8], name: String) {
        self.name = name
        self.storage = .memory(bytes)
        self.length = bytes.count
    }

    /// Opens a file; regular files are read on demand, pipes and devices are read whole into memory.
    init(path: String) throws(AudioDecodeError) {
        let file = try FileDescriptor(path: path)
        var status = stat()
        guard fstat(file.raw, &status) == 0 else {
            throw .unreadable(path: path, message: String(cString: strerror(errno)))
        }
        let fileType = status.st_mode & 0o170000
        if fileType == 0o040000 { throw .unreadable(path: path, message: "it is a directory, not a file") }
        name = path
        if fileType == 0o100000 {
            storage = .file(file)
            length = Int(status.st_size)
        } else {
            var bytes: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = block.withUnsafeMutableBytes { systemRead(file.raw, $0.baseAddress, $0.count) }
                if count < 0 { throw .unreadable(path: path, message: String(cString: strerror(errno))) }
                if count == 0 { break }
                bytes.append(contentsOf: block[0..<count])
            }
            storage = .memory(bytes)
            length = bytes.count
        }
    }

    /// Copies up to `count` bytes starting at `offset` into `destination`; returns the number copied, or -1 on error.
    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        guard offset < length, count > 0 else { return 0 }
        let wanted = min(count, length - offset)
        switch storage {
        case .memory(let bytes):
            bytes.withUnsafeBytes { source in
                destination.copyMemory(from: source.baseAddress! + offset, byteCount: wanted)
            }
            return wanted
        case .file(let file):
            var done = 0
            while done < wanted {
                let got = pread(file.raw, destination + done, wanted - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    if readFailure == nil { readFailure = String(cString: strerror(errno)) }
                    return -1
                }
                if got == 0 { break }
                done += got
            }
            return done
        }
    }

    /// Up to `count` bytes starting at `offset` (fewer at the end; empty on error).
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: max(0, min(count, length - offset)))
        guard !result.isEmpty else { return [] }
        let got = result.withUnsafeMutableBytes { read(at: offset, into: $0.baseAddress!, count: $0.count) }
        return got < 0 ? [] : Array(result.prefix(got))
    }

    /// Reads at the current position and advances it; returns the number of bytes read, or -1 on error.
    func readAdvancing(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let got = read(at: position, into: destination, count: count)
        if got > 0 { position += got }
        return got
    }

    /// Moves the read position like `lseek` (`whence` is SEEK_SET, SEEK_CUR or SEEK_END); returns it, or -1.
    func seek(offset: Int, whence: Int32) -> Int {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: return -1
        }
        let target = base + offset
        guard target >= 0 else { return -1 }
        position = target
        return target
    }
}

/// The POSIX `read`, named apart from ``ByteSource/read(at:into:count:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
