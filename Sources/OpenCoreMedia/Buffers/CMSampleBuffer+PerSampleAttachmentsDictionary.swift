import Foundation
import OpenCoreVideo

extension CMSampleBuffer {
    /// The attachments of one sample, such as `.notSync`.
    public struct PerSampleAttachmentsDictionary: Sequence, @unchecked Sendable {
        // A reference to the sample buffer's dictionary; writes go straight to it.
        let dictionary: NSMutableDictionary

        /// The value for `key`, or `nil`; setting `nil` removes it.
        public subscript(key: Key) -> Any? {
            get { dictionary.object(forKey: NSString(string: key.rawValue)) }
            nonmutating set {
                if let newValue {
                    dictionary.setObject(CMFormatDescription.propertyListCopy(newValue),
                                         forKey: NSString(string: key.rawValue))
                } else {
                    dictionary.removeObject(forKey: NSString(string: key.rawValue))
                }
            }
        }

        /// The keys and values of the sample's attachments.
        public func makeIterator() -> Array<(key: Key, value: Any)>.Iterator {
            var pairs: [(key: Key, value: Any)] = []
            for (key, value) in dictionary {
                pairs.append((Key(rawValue: (key as? String) ?? "\(key)"), value))
            }
            return pairs.makeIterator()
        }

        /// A per-sample attachment key.
        public struct Key: RawRepresentable, Hashable, Sendable {
            /// The key's string, such as `"NotSync"`.
            public let rawValue: CFString
            /// Creates a key from its string.
            public init(rawValue: CFString) { self.rawValue = rawValue }

            /// `kCMSampleAttachmentKey_NotSync`.
            public static let notSync = Key(rawValue: kCMSampleAttachmentKey_NotSync)
            /// `kCMSampleAttachmentKey_PartialSync`.
            public static let partialSync = Key(rawValue: kCMSampleAttachmentKey_PartialSync)
            /// `kCMSampleAttachmentKey_HasRedundantCoding`.
            public static let hasRedundantCoding = Key(rawValue: kCMSampleAttachmentKey_HasRedundantCoding)
            /// `kCMSampleAttachmentKey_IsDependedOnByOthers`.
            public static let isDependedOnByOthers = Key(rawValue: kCMSampleAttachmentKey_IsDependedOnByOthers)
            /// `kCMSampleAttachmentKey_DependsOnOthers`.
            public static let dependsOnOthers = Key(rawValue: kCMSampleAttachmentKey_DependsOnOthers)
            /// `kCMSampleAttachmentKey_EarlierDisplayTimesAllowed`.
            public static let earlierDisplayTimesAllowed = Key(rawValue: kCMSampleAttachmentKey_EarlierDisplayTimesAllowed)
            /// `kCMSampleAttachmentKey_DisplayImmediately`.
            public static let displayImmediately = Key(rawValue: kCMSampleAttachmentKey_DisplayImmediately)
            /// `kCMSampleAttachmentKey_DoNotDisplay`.
            public static let doNotDisplay = Key(rawValue: kCMSampleAttachmentKey_DoNotDisplay)
        }
    }
}
