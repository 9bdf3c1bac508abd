import Foundation
import HostSystem

/// Keys typed on the terminal, one at a time and without echo, while kept (standard input in
/// non-canonical mode); the terminal is set back by `restore()`. Nothing when standard input is
/// not a terminal.
final class TerminalKeys: @unchecked Sendable {
    /// A key: a character, or an arrow.
    enum Key: Equatable {
        case character(Character)
        case left, right, up, down
    }

    private var saved = termios()
    private let thread: Thread

    /// Starts reading keys into `handler` (on a thread of its own); nil when standard input is
    /// not a terminal.
    init?(handler: @escaping @Sendable (Key) -> Void) {
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0   // VMIN: reads return at once…
        raw.c_cc.5 = 1   // VTIME: …or after 0.1 s, so the thread sees a stop.
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        let box = StopBox()
        thread = Thread {
            var pending: [UInt8] = []
            while !box.isStopped {
                var byte: UInt8 = 0
                guard read(STDIN_FILENO, &byte, 1) == 1 else { continue }
                pending.append(byte)
                if pending == [0x1B] || pending == [0x1B, 0x5B] { continue }
                switch pending {
                case [0x1B, 0x5B, 0x44]: handler(.left)
                case [0x1B, 0x5B, 0x43]: handler(.right)
                case [0x1B, 0x5B, 0x41]: handler(.up)
                case [0x1B, 0x5B, 0x42]: handler(.down)
                default: if pending.count == 1 { handler(.character(Character(UnicodeScalar(byte)))) }
                }
                pending = []
            }
        }
        self.box = box
        thread.start()
    }

    private let box: StopBox

    /// Tells the reading thread to stop.
    private final class StopBox: @unchecked Sendable {
        @Locked private var stopped = false
        var isStopped: Bool { stopped }
        func stop() { stopped = true }
    }

    /// Sets the terminal back.
    func restore() {
        box.stop()
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
