import Foundation
import OpenCoreVideo

extension CMSampleBuffer {
    /// The per-sample attachment dictionaries of a sample buffer, one per sample.
    ///
    /// The dictionaries are the sample buffer's own: setting a value through an element changes
    /// the sample buffer, as with `CMSampleBufferGetSampleAttachmentsArray`.
    public struct SampleAttachmentsArray: RandomAccessCollection, @unchecked Sendable {
        // The dictionaries are shared, lockless NSMutableDictionary objects, as on Apple platforms.
        let dictionaries: [NSMutableDictionary]

        /// The first index: 0.
        public var startIndex: Int { 0 }
        /// One past the last index: the number of samples.
        public var endIndex: Int { dictionaries.count }
        /// The attachments of sample `position`.
        public subscript(position: Int) -> PerSampleAttachmentsDictionary {
            PerSampleAttachmentsDictionary(dictionary: dictionaries[position])
        }
    }
}
