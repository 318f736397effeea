import Foundation

/// A model file's bytes: the file mapped read-only into memory (unmapped when this object goes away), or a copy of
/// bytes already in memory.
///
/// The model is built from its file once; each part read can then be handed back at once (`releasePages`), so that
/// the whole file is never resident beside the weights made from it (75 MB for Whisper tiny.en, which counted towards
/// every worker's peak RSS).
///
/// Thread rule: the bytes are never written; share it freely. `releasePages` only drops clean pages of a private file
/// mapping, which the kernel reads from the file again if they are touched later: no reader can see a change.
final class ModelFileContents: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let isMapped: Bool

    /// Maps `path`; throws `.unreadable` with the system's reason.
    init(mapping path: String) throws(WhisperModelError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            isMapped = false
            return
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        isMapped = true
    }

    init(copying data: Data) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        _ = data.copyBytes(to: copy.bindMemory(to: UInt8.self))
        bytes = UnsafeRawBufferPointer(copy)
        isMapped = false
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// Drops the resident pages that hold `range` of a mapped file; nothing for a copy. The start is rounded down to
    /// `faultAroundBytes`: a fault maps the pages around it that the page cache holds, so reading the next part of a
    /// variable maps again the end of the part before, released already. (A neighbour's bytes on a page dropped are
    /// read from the file again if needed.)
    func releasePages(_ range: Range<Int>) {
        guard isMapped, let base = bytes.baseAddress, !range.isEmpty else { return }
        let start = range.lowerBound / Self.faultAroundBytes * Self.faultAroundBytes
        let end = min(bytes.count, (range.upperBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize)
        madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    /// Linux's default `fault_around_bytes`.
    private static let faultAroundBytes = 65_536
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
}
