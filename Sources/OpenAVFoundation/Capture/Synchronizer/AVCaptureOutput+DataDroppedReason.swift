import Foundation

extension AVCaptureOutput {
    /// Why a data output dropped data, as a synchronized collection reports it.
    public enum DataDroppedReason: Int, Sendable {
        /// Nothing was dropped.
        case none = 0
        /// Dropped because the output discards late data (`alwaysDiscardsLateVideoFrames`) and
        /// the delegate was still busy with earlier data.
        case lateData = 1
        /// Dropped because the output's pool of buffers ran dry (the client holds on to buffers
        /// too long).
        case outOfBuffers = 2
        /// Dropped because the device providing the data had a discontinuity: an unknown
        /// number of data objects were lost.
        case discontinuity = 3
    }
}
