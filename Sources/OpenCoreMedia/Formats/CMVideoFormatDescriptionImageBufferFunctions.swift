import Foundation
import OpenCoreVideo

/// The extension keys a video format description shares with image buffer attachments.
public func CMVideoFormatDescriptionGetExtensionKeysCommonWithImageBuffers() -> CFArray {
    NSArray(array: commonImageBufferKeys.map { NSString(string: $0) })
}

private let commonImageBufferKeys: [String] = [
    kCMFormatDescriptionExtension_CleanAperture, kCMFormatDescriptionExtension_FieldCount,
    kCMFormatDescriptionExtension_FieldDetail, kCMFormatDescriptionExtension_PixelAspectRatio,
    kCMFormatDescriptionExtension_ColorPrimaries, kCMFormatDescriptionExtension_TransferFunction,
    kCMFormatDescriptionExtension_GammaLevel, kCMFormatDescriptionExtension_YCbCrMatrix,
]

/// Creates a video format description for an image buffer: its pixel format as the subtype, its
/// dimensions, and as extensions its attachments that format descriptions share (clean
/// aperture, pixel aspect ratio, color primaries, transfer function, Y'CbCr matrix, field count
/// and detail, gamma) plus its bytes per row.
@discardableResult
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = try? CMFormatDescription(imageBuffer: imageBuffer)
    return noErr
}

extension CMFormatDescription {
    /// A video format description for an image buffer, as
    /// `CMVideoFormatDescriptionCreateForImageBuffer` makes it.
    ///
    /// Declared `throws` as Apple's is; making a description does not fail here.
    public convenience init(imageBuffer: CVImageBuffer) throws {
        var extensions: [String: Any] = [:]
        for key in commonImageBufferKeys {
            if let value = CVBufferCopyAttachment(imageBuffer, key, nil) { extensions[key] = value }
        }
        extensions[kCMFormatDescriptionExtension_BytesPerRow] = CVPixelBufferGetBytesPerRow(imageBuffer)
        self.init(mediaType: kCMMediaType_Video, mediaSubType: CVPixelBufferGetPixelFormatType(imageBuffer),
                  extensions: CMFormatDescription.propertyListCopy(extensions) as? NSDictionary,
                  dimensions: CMVideoDimensions(width: Int32(clamping: CVPixelBufferGetWidth(imageBuffer)),
                                                height: Int32(clamping: CVPixelBufferGetHeight(imageBuffer))),
                  asbd: nil, layoutBytes: nil, cookieBytes: nil, codecPrivateData: nil)
    }
}
