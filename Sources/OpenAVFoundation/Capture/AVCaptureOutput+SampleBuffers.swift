import Foundation
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
    /// `maximumQueuedBufferCount` buffers. Drops are reported to the delegate only. The
    /// iteration ends when the session stops running or the output is removed from it.
    public struct SampleBuffers: AsyncSequence, Sendable {
        /// A sample buffer, as the delegate would get it.
        public typealias Element = CMSampleBuffer

        /// Makes the stream of one iteration.
        let makeStream: @Sendable () -> AsyncStream<CMSampleBuffer>

        /// Starts an iteration.
        public func makeAsyncIterator() -> AsyncStream<CMSampleBuffer>.Iterator {
            makeStream().makeAsyncIterator()
        }
    }
}
