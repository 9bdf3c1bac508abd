import Foundation
import HostSystem
import Hummingbird
import OpenAVFoundation

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

    /// A sound message and how long a stretch of sound it carries.
    typealias Sound = (message: ByteBuffer, duration: CMTime)

    /// Sound kept for a client that does not keep up: a second, in as many messages as a
    /// second of the microphones' 10 ms buffers makes, with room to spare.
    private static let soundLimits = BoundedQueue<Sound>.Limits(count: 128, duration: CMTime(value: 1, timescale: 1))
    private let lock = NSLock()
    /// The picture waiting to be sent: one slot, whose picture a newer one replaces.
    private var picture = BoundedQueue<ByteBuffer>(capacity: 1, policy: .dropOldest)
    /// The sound waiting to be sent, in order; the oldest is dropped beyond `soundLimits`.
    private var sound = BoundedQueue<Sound>(limits: soundLimits, policy: .dropOldest) { ($0.message.readableBytes, $0.duration) }
    private var level: (average: Float, peak: Float)?
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Whether no picture waits to be sent: a new one would be sent, not replace one.
    var wantsPicture: Bool { lock.withLock { picture.isEmpty } }

    /// Replaces the picture waiting to be sent, if any.
    func offerPicture(_ message: ByteBuffer) {
        update { _ = picture.push(message) }
    }

    /// Adds sound to send (a message carrying `duration` of it), dropping the oldest beyond a
    /// second.
    func offerSound(_ message: ByteBuffer, duration: CMTime) {
        update { _ = sound.push((message, duration)) }
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
                var messages: [Message] = []
                messages.reserveCapacity(sound.count + 2)
                while !sound.isEmpty { messages.append(.binary(sound.pop()!.message)) }
                if !picture.isEmpty { messages.append(.binary(picture.pop()!)) }
                if let level {
                    messages.append(.text(String(format: "{\"type\":\"level\",\"average\":%.1f,\"peak\":%.1f}", level.average, level.peak)))
                }
                self.level = nil
                return (messages, closed)
            }
            if isClosed { return nil }
            if !messages.isEmpty { return messages }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock { () -> Bool in
                    if closed || !picture.isEmpty || !sound.isEmpty || level != nil { return true }
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
