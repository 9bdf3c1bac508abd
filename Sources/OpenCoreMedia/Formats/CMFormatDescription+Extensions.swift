import Foundation
import OpenCoreVideo

extension CMFormatDescription {
    /// A format description's extensions as a Swift value, keyed by extension key.
    ///
    /// Differs from Apple: `Key` has the commonly used keys only, and `Value` wraps the property
    /// list without Apple's typed factory methods.
    public struct Extensions: @unchecked Sendable, CustomStringConvertible {
        // Values are immutable Foundation property-list objects; copies are made on write.
        private var storage: [String: AnyObject]

        /// Creates empty extensions.
        public init() { storage = [:] }

        /// Creates extensions from a dictionary of property-list values.
        public init(base: [CFString: CFTypeRef]?) {
            storage = (base ?? [:]).mapValues { CMFormatDescription.propertyListCopy($0) }
        }

        init(dictionary: NSDictionary?) {
            var values: [String: AnyObject] = [:]
            if let dictionary {
                for (key, value) in dictionary {
                    values[(key as? String) ?? "\(key)"] = CMFormatDescription.propertyListCopy(value)
                }
            }
            storage = values
        }

        /// The value for a raw extension key such as `kCMFormatDescriptionExtension_Depth`.
        public subscript(key: CFString) -> CFTypeRef? {
            get { storage[key] }
            set { storage[key] = newValue.map { CMFormatDescription.propertyListCopy($0) } }
        }

        /// The value for a typed extension key.
        public subscript(key: Key) -> Value? {
            get { storage[key.rawValue].map { Value(propertyListRepresentation: $0) } }
            set { storage[key.rawValue] = newValue?.propertyListRepresentation }
        }

        /// The extensions as a dictionary, as `CMFormatDescriptionGetExtensions` returns it.
        public var propertyListRepresentation: CFDictionary {
            NSDictionary(objects: Array(storage.values), forKeys: storage.keys.map { NSString(string: $0) })
        }

        /// The extension keys and values.
        public var description: String { "\(storage)" }

        /// A typed extension key.
        public struct Key: RawRepresentable, Hashable, Sendable {
            /// The key's string, such as `"Depth"`.
            public let rawValue: CFString
            /// Creates a key from its string.
            public init(rawValue: CFString) { self.rawValue = rawValue }

            /// `kCMFormatDescriptionExtension_FormatName`.
            public static let formatName = Key(rawValue: kCMFormatDescriptionExtension_FormatName)
            /// `kCMFormatDescriptionExtension_Depth`.
            public static let depth = Key(rawValue: kCMFormatDescriptionExtension_Depth)
            /// `kCMFormatDescriptionExtension_CleanAperture`.
            public static let cleanAperture = Key(rawValue: kCMFormatDescriptionExtension_CleanAperture)
            /// `kCMFormatDescriptionExtension_PixelAspectRatio`.
            public static let pixelAspectRatio = Key(rawValue: kCMFormatDescriptionExtension_PixelAspectRatio)
            /// `kCMFormatDescriptionExtension_ColorPrimaries`.
            public static let colorPrimaries = Key(rawValue: kCMFormatDescriptionExtension_ColorPrimaries)
            /// `kCMFormatDescriptionExtension_TransferFunction`.
            public static let transferFunction = Key(rawValue: kCMFormatDescriptionExtension_TransferFunction)
            /// `kCMFormatDescriptionExtension_YCbCrMatrix`.
            public static let yCbCrMatrix = Key(rawValue: kCMFormatDescriptionExtension_YCbCrMatrix)
            /// `kCMFormatDescriptionExtension_FullRangeVideo`.
            public static let fullRangeVideo = Key(rawValue: kCMFormatDescriptionExtension_FullRangeVideo)
            /// `kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms`.
            public static let sampleDescriptionExtensionAtoms =
                Key(rawValue: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms)
            /// `kCMFormatDescriptionExtension_FieldCount`.
            public static let fieldCount = Key(rawValue: kCMFormatDescriptionExtension_FieldCount)
            /// `kCMFormatDescriptionExtension_VerbatimSampleDescription`.
            public static let verbatimSampleDescription =
                Key(rawValue: kCMFormatDescriptionExtension_VerbatimSampleDescription)
        }

        /// A typed extension value.
        public struct Value: @unchecked Sendable {
            /// The value as a property-list object (NSNumber, NSString, NSData, NSArray, NSDictionary).
            public let propertyListRepresentation: CFTypeRef

            /// Wraps a property-list object.
            public init(propertyListRepresentation: CFTypeRef) {
                self.propertyListRepresentation = CMFormatDescription.propertyListCopy(propertyListRepresentation)
            }
        }
    }
}
