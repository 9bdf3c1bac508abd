import Foundation
import OpenCoreVideo

extension CMSampleBuffer {
    /// Flags for the audio buffer list methods, such as
    /// `withAudioBufferList(blockBufferMemoryAllocator:flags:body:)`.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The bits, with the values of the `kCMSampleBufferFlag_…` constants.
        public let rawValue: UInt32
        /// Creates flags from their bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Every buffer of the list 16-byte aligned:
        /// `kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment`.
        public static let audioBufferListAssure16ByteAlignment =
            Flags(rawValue: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment)
    }
}
