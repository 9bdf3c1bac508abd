import Foundation
import HostSystem
import OpenCoreMedia

/// The asynchronous consumers of one capture output (`AVCaptureOutput.SampleBuffers`): each
/// iteration waits on its own `BoundedQueue`, with the output's policy, fed by the output
/// alongside its delegate and finished when the session stops or the output leaves it.
final class SampleBufferStreams: @unchecked Sendable {
    /// One iteration's queue and, while it waits, its suspended `next()`.
    private struct Iteration {
        var queue: BoundedQueue<CMSampleBuffer>
        var waiter: CheckedContinuation<CMSampleBuffer?, Never>?
    }

    private let lock = NSLock()
    private var iterations: [Int: Iteration] = [:]
    /// Iterations that ended (session stopped) while their iterator still exists.
    private var finished: Set<Int> = []
    private var nextID = 0
    /// Where buffers go when no delegate queue is set.
    let queue = DispatchQueue(label: "OpenAVFoundation.AVCaptureOutput.sampleBuffers")
    /// The output fed, told when an iteration starts or ends (its needs may change then).
    private weak var output: AVCaptureOutput?

    /// The streams of `output`.
    init(of output: AVCaptureOutput) {
        self.output = output
    }

    private func iterationsChanged() { output?.needsChanged() }

    /// Whether anyone is iterating.
    var isEmpty: Bool { lock.withLock { iterations.isEmpty } }

    /// A new iteration, fed from now on, its queue with `capacity` and `policy`.
    func makeIterator(capacity: Int, policy: BoundedQueue<CMSampleBuffer>.Policy) -> AVCaptureOutput.SampleBuffers.Iterator {
        let id = lock.withLock { () -> Int in
            nextID += 1
            iterations[nextID] = Iteration(queue: BoundedQueue(capacity: capacity, policy: policy))
            return nextID
        }
        iterationsChanged()
        return AVCaptureOutput.SampleBuffers.Iterator(handle: Handle(streams: self, id: id))
    }

    /// Gives a buffer to every iteration: to one waiting at once, else into its queue (which
    /// keeps or drops it by its policy).
    func yield(_ buffer: CMSampleBuffer) {
        let woken = lock.withLock { () -> [CheckedContinuation<CMSampleBuffer?, Never>] in
            var woken: [CheckedContinuation<CMSampleBuffer?, Never>] = []
            for id in iterations.keys {
                if let waiter = iterations[id]!.waiter {
                    iterations[id]!.waiter = nil
                    woken.append(waiter)
                } else {
                    _ = iterations[id]!.queue.push(buffer)
                }
            }
            return woken
        }
        for waiter in woken { waiter.resume(returning: buffer) }
    }

    /// Ends every iteration: each gets what its queue still holds, then nil.
    func finishAll() {
        let woken = lock.withLock { () -> [CheckedContinuation<CMSampleBuffer?, Never>] in
            finished.formUnion(iterations.keys)
            return iterations.keys.compactMap { id in
                defer { iterations[id]!.waiter = nil }
                return iterations[id]!.waiter
            }
        }
        for waiter in woken { waiter.resume(returning: nil) }
    }

    /// The next buffer of an iteration, waiting for one; nil once it ended or its task was
    /// cancelled.
    fileprivate func next(of id: Int) async -> CMSampleBuffer? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CMSampleBuffer?, Never>) in
                let ready = lock.withLock { () -> CMSampleBuffer?? in
                    guard iterations[id] != nil else { return .some(nil) }
                    if let buffer = iterations[id]!.queue.pop() { return buffer }
                    if finished.contains(id) || Task.isCancelled { return .some(nil) }
                    iterations[id]!.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> CheckedContinuation<CMSampleBuffer?, Never>? in
                defer { iterations[id]?.waiter = nil }
                return iterations[id]?.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Forgets an iteration whose iterator is gone.
    fileprivate func remove(_ id: Int) {
        lock.withLock {
            iterations[id] = nil
            finished.remove(id)
        }
        iterationsChanged()
    }

    /// Ties an iteration to its iterator's life: the iteration ends when the iterator goes.
    final class Handle: Sendable {
        private let streams: SampleBufferStreams
        private let id: Int

        fileprivate init(streams: SampleBufferStreams, id: Int) {
            self.streams = streams
            self.id = id
        }

        deinit { streams.remove(id) }

        /// The iteration's next buffer.
        func next() async -> CMSampleBuffer? { await streams.next(of: id) }
    }
}
