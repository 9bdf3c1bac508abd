import Dispatch
import Foundation

/// The progress line long work shows on a terminal: percent, a bar, speed as times real time,
/// and time left, redrawn on standard error a few times a second. Shows nothing when standard
/// error is not a terminal (the command then prints only its result).
final class ProgressLine: @unchecked Sendable {
    private let timer: DispatchSourceTimer?
    private let started = Date()
    private let mediaSeconds: Double
    private let fraction: @Sendable () -> Float

    /// Starts showing the progress of work on `mediaSeconds` of media; `fraction` reads how far
    /// it is, from 0 to 1.
    init(mediaSeconds: Double, fraction: @escaping @Sendable () -> Float) {
        self.mediaSeconds = mediaSeconds
        self.fraction = fraction
        guard isatty(STDERR_FILENO) != 0 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "openav.progress"))
        self.timer = timer
        timer.schedule(deadline: .now(), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    /// The line for a fraction done after `elapsed` seconds.
    static func text(fraction: Double, elapsed: Double, mediaSeconds: Double, width: Int = 30) -> String {
        let done = max(0, min(1, fraction))
        let filled = Int(done * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        var text = String(format: "%3d%% [%@]", Int(done * 100), bar)
        if done > 0, elapsed > 0.2 {
            if mediaSeconds.isFinite, mediaSeconds > 0 { text += String(format: " %.1fx", done * mediaSeconds / elapsed) }
            let left = Int((elapsed / done - elapsed).rounded())
            text += String(format: "  %d:%02d left", left / 60, left % 60)
        }
        return text
    }

    private func draw() {
        let line = Self.text(fraction: Double(fraction()), elapsed: Date().timeIntervalSince(started), mediaSeconds: mediaSeconds)
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
    }

    /// Stops showing the line and clears it.
    func finish() {
        guard let timer else { return }
        timer.cancel()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// Calls `handler` on Ctrl-C (SIGINT) or a polite kill (SIGTERM) while it is kept, instead of
/// letting the signal end the process, so long work can stop cleanly.
final class InterruptHandler: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops catching the signals.
    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
