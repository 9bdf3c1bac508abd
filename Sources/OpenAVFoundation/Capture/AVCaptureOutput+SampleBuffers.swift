import Foundation
import HostSystem
import OpenCoreMedia

extension AVCaptureOutput {
    /// The sample buffers a data output delivers, as an asynchronous sequence:
    /// `for await buffer in output.sampleBuffers { … }`.
    ///
    /// Linux addition: Apple offers only the delegate. Each iteration receives every buffer
    /// from when it starts, the same buffers the delegate gets (converted as `videoSettings`
    /// asks), through a bounded queue with the delegate's policy: for video, the newest frame
    /// waits while the loop is busy when `alwaysDiscardsLateVideoFrames` is true, else up to
    /// `lateFrameQueueCapacity` frames and newer ones are dropped; for audio, up to
    /// `maximumQueuedBufferCount` buffers (the same `BoundedQueue` type and policy as the
    /// delegate's, one per iteration). Drops are reported to the delegate only. The iteration
    /// ends when the session stops running or the output is removed from it, or its task is
    /// cancelled.
    public struct SampleBuffers: AsyncSequence, Sendable {
        /// A sample buffer, as the delegate would get it.
        public typealias Element = CMSampleBuffer

        /// Makes one iteration.
        let makeIterator: @Sendable () -> Iterator

        /// Starts an iteration.
        public func makeAsyncIterator() -> Iterator { makeIterator() }

        /// One iteration: waits for the output's next buffer; nil once the session stopped
        /// (after the buffers still queued) or the iterating task was cancelled.
        public struct Iterator: AsyncIteratorProtocol {
            let handle: SampleBufferStreams.Handle

            /// The next sample buffer, or nil at the end.
            public mutating func next() async -> CMSampleBuffer? { await handle.next() }
        }
    }
}
