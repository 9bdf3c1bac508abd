import Foundation
import Hummingbird

/// What one browser on the live WebSocket has still to be sent. Pictures are replaced, never
/// queued: a browser or a link slower than the camera gets fewer pictures, and nothing it does
/// reaches the capture session. Sound is kept in order, up to about a second, then the oldest
/// is dropped; levels not yet sent are merged (the loudest counts), so a beep is never missed.
final class LiveClient: @unchecked Sendable {
    /// One WebSocket message.
    enum Message {
        case binary(ByteBuffer)
        case text(String)
    }

    /// Sound kept for a client that does not keep up, in bytes (a second of 48 kHz stereo
    /// 32-bit float).
    private static let soundLimit = 48_000 * 2 * 4
    private let lock = NSLock()
    private var picture: ByteBuffer?
    private var sound: [ByteBuffer] = []
    private var soundBytes = 0
    private var level: (average: Float, peak: Float)?
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Whether no picture waits to be sent: a new one would be sent, not replace one.
    var wantsPicture: Bool { lock.withLock { picture == nil } }

    /// Replaces the picture waiting to be sent, if any.
    func offerPicture(_ message: ByteBuffer) {
        update { picture = message }
    }

    /// Adds sound to send, dropping the oldest beyond a second.
    func offerSound(_ message: ByteBuffer) {
        update {
            sound.append(message)
            soundBytes += message.readableBytes
            while soundBytes > Self.soundLimit, sound.count > 1 { soundBytes -= sound.removeFirst().readableBytes }
        }
    }

    /// Merges levels (dBFS) into those waiting to be sent: the louder of each.
    func offerLevel(average: Float, peak: Float) {
        update { level = level.map { (max($0.average, average), max($0.peak, peak)) } ?? (average, peak) }
    }

    /// Ends the client: `next()` answers nil from now on.
    func close() {
        update { closed = true }
    }

    /// What there is to send, in order (sound, picture, level), once there is something; nil
    /// once the client is closed.
    func next() async -> [Message]? {
        while true {
            let (messages, isClosed) = lock.withLock { () -> ([Message], Bool) in
                var messages = sound.map(Message.binary)
                if let picture { messages.append(.binary(picture)) }
                if let level {
                    messages.append(.text(String(format: "{\"type\":\"level\",\"average\":%.1f,\"peak\":%.1f}", level.average, level.peak)))
                }
                (sound, soundBytes, picture, level) = ([], 0, nil, nil)
                return (messages, closed)
            }
            if isClosed { return nil }
            if !messages.isEmpty { return messages }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock { () -> Bool in
                    if closed || picture != nil || !sound.isEmpty || level != nil { return true }
                    waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    private func update(_ change: () -> Void) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            change()
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }
}
