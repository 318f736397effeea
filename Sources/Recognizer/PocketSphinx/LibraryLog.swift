import CPocketSphinx
import Foundation
import Synchronization

/// Captures sphinxbase's process-global log per calling thread, so an error can carry the library's own lines.
///
/// The library logs through one global callback; this routes each line to the capture open on the thread that made
/// the call (decoders are confined to one thread each). Lines outside a capture are dropped unless verbose.
/// Thread-safe.
enum LibraryLog {
    /// One open capture: the lines collected so far and whether to echo them to standard error.
    private struct Capture {
        var lines: [String] = []
        var verbose: Bool
        var depth = 1
    }

    private static let captures = Mutex<[UInt: Capture]>([:])

    /// Installs the callback once per process; silences the library's default stderr logging.
    private static let installed: Bool = {
        flightvoice_set_log_sink(libraryLogSink)
        return true
    }()

    /// Runs `body` with the library's warnings and errors on this thread collected into `lines`.
    static func capturing<Result>(verbose: Bool, _ body: () throws -> Result) rethrows -> Result {
        _ = installed
        let thread = currentThread()
        captures.withLock { captures in
            if captures[thread] != nil {
                captures[thread]!.depth += 1
                captures[thread]!.verbose = captures[thread]!.verbose || verbose
            } else {
                captures[thread] = Capture(verbose: verbose)
            }
        }
        defer {
            captures.withLock { captures in
                captures[thread]!.depth -= 1
                if captures[thread]!.depth == 0 { captures[thread] = nil }
            }
        }
        return try body()
    }

    /// The warning and error lines collected on this thread since the capture opened, then forgets them.
    static func takeLines() -> [String] {
        let thread = currentThread()
        return captures.withLock { captures in
            let lines = captures[thread]?.lines ?? []
            captures[thread]?.lines = []
            return lines
        }
    }

    /// Called by the C trampoline for every formatted piece the library logs.
    fileprivate static func receive(level: Int32, message: String) {
        let thread = currentThread()
        let verbose = captures.withLock { captures -> Bool in
            guard captures[thread] != nil else { return false }
            if level >= Int32(ERR_WARN.rawValue) {
                let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                captures[thread]!.lines.append(contentsOf: lines.filter { !$0.isEmpty })
                if captures[thread]!.lines.count > maximumLines { captures[thread]!.lines.removeFirst(captures[thread]!.lines.count - maximumLines) }
            }
            return captures[thread]!.verbose
        }
        if verbose { FileHandle.standardError.write(Data(message.utf8)) }
    }

    /// Keeps an error report short when the library repeats itself.
    private static let maximumLines = 20

    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}

/// The C-callable sink: a plain string per log call.
private let libraryLogSink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, message in
    guard let message else { return }
    LibraryLog.receive(level: level, message: String(cString: message))
}
