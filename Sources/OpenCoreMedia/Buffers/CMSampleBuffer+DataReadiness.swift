import Foundation
import OpenCoreVideo

extension CMSampleBuffer {
    /// Whether a sample buffer's data is ready to use.
    public enum DataReadiness: Equatable, Hashable, Sendable {
        /// The data is ready.
        case ready
        /// The data is not ready yet.
        case notReady
        /// Loading the data failed with this status.
        case failed(OSStatus)
    }
}
