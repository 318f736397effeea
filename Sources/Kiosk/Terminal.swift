import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal in raw mode, drawn with ANSI escape sequences.
///
/// Why ANSI + termios rather than ncurses: the kiosk redraws a whole screen a few times a second, uses only cursor
/// placement, bold and inverse video, and must restore the terminal on every way out (Ctrl-C, a signal, an error);
/// raw termios keeps that in one small type with no C shim for ncurses' macros, and tmux and every terminal since the
/// VT100 understand it.
///
/// Thread rule: one per process; `write` and `size` may be called from any thread (writes are serialised by a lock);
/// the saved terminal state is restored once, by `restore()` or at exit.
final class Terminal: @unchecked Sendable {
    private var saved = termios()
    private let hasSavedState: Bool
    private let lock = NSLock()
    private var restored = false

    /// Switches standard input to raw mode (no echo, no line buffering, Ctrl-C arrives as a key), hides the cursor and
    /// switches to the alternate screen.
    init() {
        hasSavedState = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        if hasSavedState {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
            raw.c_cc.6 = 1 // VMIN: a read returns after one byte
            raw.c_cc.5 = 0 // VTIME: no timeout
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        }
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and puts the terminal back as it was.
    func restore() {
        let first: Bool = lock.withLock {
            defer { restored = true }
            return !restored
        }
        guard first else { return }
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if hasSavedState { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    }

    /// Columns and rows; 80×24 when the size cannot be read.
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Writes `text` to standard output at once.
    func write(_ text: String) {
        lock.withLock {
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }
}

/// A key the traveller pressed.
enum KeyPress: Sendable, Equatable {
    case character(Character)
    case enter, backspace, escape, interrupt, endOfInput
}

/// Reads key presses from standard input on a thread of its own.
enum Keyboard {
    /// ESC followed by this within one read is an escape sequence (arrow keys, function keys), not the Esc key.
    static let sequenceIntroducers: Set<UInt8> = [UInt8(ascii: "["), UInt8(ascii: "O")]

    /// The key presses, until standard input ends.
    static func keys() -> AsyncStream<KeyPress> {
        let (stream, continuation) = AsyncStream.makeStream(of: KeyPress.self)
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            var pending: [UInt8] = []
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    continuation.yield(.endOfInput)
                    continuation.finish()
                    return
                }
                var bytes = buffer[0..<count][...]
                while let byte = bytes.popFirst() {
                    switch byte {
                    case 0x03: continuation.yield(.interrupt)
                    case 0x0D, 0x0A: continuation.yield(.enter)
                    case 0x7F, 0x08: continuation.yield(.backspace)
                    case 0x1B:
                        if let next = bytes.first, sequenceIntroducers.contains(next) {
                            // Skip the sequence: after its introducer, it ends at the first byte in 0x40...0x7E.
                            bytes.removeFirst()
                            while let part = bytes.popFirst(), !(0x40...0x7E).contains(part) {}
                        } else {
                            continuation.yield(.escape)
                        }
                    case 0x20...0x7E: continuation.yield(.character(Character(UnicodeScalar(byte))))
                    default:
                        pending.append(byte)
                        if let text = String(bytes: pending, encoding: .utf8), let character = text.first {
                            continuation.yield(.character(character))
                            pending = []
                        } else if pending.count > 4 {
                            pending = []
                        }
                    }
                }
            }
        }
        thread.name = "FlightVoice.keyboard"
        thread.start()
        return stream
    }
}
