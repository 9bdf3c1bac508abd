import Foundation
import OpenCoreMedia

/// The asynchronous consumers of one capture output (`AVCaptureOutput.SampleBuffers`): each
/// iteration gets its own bounded stream, fed by the output alongside its delegate, and
/// finished when the session stops or the output leaves it.
final class SampleBufferStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [Int: AsyncStream<CMSampleBuffer>.Continuation] = [:]
    private var nextID = 0
    /// Where buffers go when no delegate queue is set.
    let queue = DispatchQueue(label: "OpenAVFoundation.AVCaptureOutput.sampleBuffers")

    /// Whether anyone is iterating.
    var isEmpty: Bool { lock.withLock { continuations.isEmpty } }

    /// A new stream, fed from now on, keeping buffers by the output's policy.
    func makeStream(bufferingPolicy: AsyncStream<CMSampleBuffer>.Continuation.BufferingPolicy) -> AsyncStream<CMSampleBuffer> {
        let (stream, continuation) = AsyncStream<CMSampleBuffer>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = lock.withLock { () -> Int in
            nextID += 1
            continuations[nextID] = continuation
            return nextID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = lock.withLock { continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives a buffer to every stream (each keeps or drops it by its policy).
    func yield(_ buffer: CMSampleBuffer) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(buffer) }
    }

    /// Ends every stream.
    func finishAll() {
        let ending = lock.withLock { () -> [AsyncStream<CMSampleBuffer>.Continuation] in
            defer { continuations.removeAll() }
            return Array(continuations.values)
        }
        for continuation in ending { continuation.finish() }
    }
}
