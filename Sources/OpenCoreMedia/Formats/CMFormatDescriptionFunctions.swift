import Foundation
import OpenCoreVideo

/// A format description of video; the same type as `CMFormatDescription`, as on Apple platforms.
public typealias CMVideoFormatDescription = CMFormatDescription

/// A format description of audio; the same type as `CMFormatDescription`, as on Apple platforms.
public typealias CMAudioFormatDescription = CMFormatDescription

/// Creates a format description of any media type from a subtype and extensions.
///
/// Extensions are deep-copied into Foundation property-list objects.
@discardableResult
public func CMFormatDescriptionCreate(
    allocator: CFAllocator?, mediaType: CMMediaType, mediaSubType: FourCharCode, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = CMFormatDescription(
        mediaType: mediaType, mediaSubType: mediaSubType, extensions: extensions, dimensions: nil, asbd: nil,
        layoutBytes: nil, cookieBytes: nil, codecPrivateData: nil)
    return noErr
}

/// The media type of a format description, such as `kCMMediaType_Video`.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType {
    desc.storedMediaType
}

/// The media subtype of a format description: the codec type for video, `mFormatID` for audio.
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode {
    desc.storedMediaSubType
}

/// All extensions of a format description, or `nil` when it has none.
public func CMFormatDescriptionGetExtensions(_ desc: CMFormatDescription) -> CFDictionary? {
    desc.storedExtensions
}

/// One extension of a format description, or `nil` when absent.
///
/// Differs from Apple: typed `CFTypeRef?` (Apple's `CFPropertyList?` is the same type). Values are
/// Foundation objects: NSNumber, NSString, NSData, NSArray, NSDictionary.
public func CMFormatDescriptionGetExtension(_ desc: CMFormatDescription, extensionKey: CFString) -> CFTypeRef? {
    guard let value = desc.storedExtensions?.object(forKey: NSString(string: extensionKey)) else { return nil }
    return CMFormatDescription.propertyListCopy(value)
}

/// Whether two format descriptions describe the same format; two `nil`s are not equal.
public func CMFormatDescriptionEqual(
    _ formatDescription: CMFormatDescription?, otherFormatDescription: CMFormatDescription?
) -> Bool {
    guard let formatDescription, let otherFormatDescription else { return false }
    return formatDescription == otherFormatDescription
}

extension CMFormatDescription {
    /// The media type, such as `.video`.
    public var mediaType: MediaType { MediaType(rawValue: storedMediaType) }

    /// The media subtype, such as `.h264` or `.mpeg4AAC`.
    public var mediaSubType: MediaSubType { MediaSubType(rawValue: storedMediaSubType) }

    /// All extensions.
    public var extensions: Extensions { Extensions(dictionary: storedExtensions) }

    /// One extension, or `nil` when absent.
    public func `extension`(by extensionKey: Extensions.Key) -> Extensions.Value? {
        CMFormatDescriptionGetExtension(self, extensionKey: extensionKey.rawValue)
            .map { Extensions.Value(propertyListRepresentation: $0) }
    }
}
