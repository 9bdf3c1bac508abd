import Foundation
import OpenCoreVideo

extension CMFormatDescription {
    /// A format description of any media type, as `CMFormatDescriptionCreate` makes it: a text
    /// track's (`.text`, `.qt` or `.mobile3GPP`, with the text extensions), a metadata track's, …
    ///
    /// Declared `throws` as Apple's is; making a description does not fail here.
    public convenience init(mediaType: MediaType, mediaSubType: MediaSubType, extensions: Extensions? = nil) throws {
        self.init(mediaType: mediaType.rawValue, mediaSubType: mediaSubType.rawValue,
                  extensions: extensions?.propertyListRepresentation, dimensions: nil, asbd: nil,
                  layoutBytes: nil, cookieBytes: nil, codecPrivateData: nil)
    }

    /// A video format description, as `CMVideoFormatDescriptionCreate` makes it. Throws an
    /// `NSError` in `NSOSStatusErrorDomain` (`kCMFormatDescriptionError_InvalidParameter`) for a
    /// negative width or height.
    public convenience init(videoCodecType: MediaSubType, width: Int, height: Int, extensions: Extensions? = nil) throws {
        guard let width = Int32(exactly: width), let height = Int32(exactly: height), width >= 0, height >= 0 else {
            throw Self.error(kCMFormatDescriptionError_InvalidParameter)
        }
        self.init(mediaType: kCMMediaType_Video, mediaSubType: videoCodecType.rawValue,
                  extensions: extensions?.propertyListRepresentation, dimensions: CMVideoDimensions(width: width, height: height),
                  asbd: nil, layoutBytes: nil, cookieBytes: nil, codecPrivateData: nil)
    }
}
