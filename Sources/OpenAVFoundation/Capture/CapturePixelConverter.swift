import Foundation
import MediaEngine
import OpenCoreVideo

/// Converts captured frames into buffers of its own pool, of any pixel format and size, through
/// the shared `PixelConverter`: the video data output's format conversion and the still outputs'
/// uncompressed photos. The device's pool buffer is released as soon as the copy is made.
///
/// Not thread-safe: each owner uses it from one queue at a time.
final class CapturePixelConverter {
    private let converter = PixelConverter()
    private var pool: CVPixelBufferPool?
    private var poolKey: (OSType, Int, Int)?

    /// A converter with no pool yet.
    init() {}

    /// `source` converted (and scaled) into a new pool buffer of `pixelFormat`, `width` x
    /// `height`, carrying the source's propagated attachments.
    func convert(_ source: CVPixelBuffer, to pixelFormat: OSType, width: Int, height: Int) throws(EngineError) -> CVPixelBuffer {
        if poolKey.map({ $0 != (pixelFormat, width, height) }) ?? true {
            let attributes: NSDictionary = [
                kCVPixelBufferPixelFormatTypeKey: NSNumber(value: pixelFormat),
                kCVPixelBufferWidthKey: NSNumber(value: width),
                kCVPixelBufferHeightKey: NSNumber(value: height),
            ]
            pool = nil
            CVPixelBufferPoolCreate(nil, nil, attributes, &pool)
            poolKey = (pixelFormat, width, height)
        }
        var destination: CVPixelBuffer?
        guard let pool, CVPixelBufferPoolCreatePixelBuffer(nil, pool, &destination) == kCVReturnSuccess,
              let destination else {
            throw EngineError(operation: "converting a captured frame",
                              message: "cannot allocate a '\(pixelFormat.fourCharacterString)' \(width)x\(height) buffer")
        }
        try converter.convert(source, into: destination)
        CVBufferPropagateAttachments(source, destination)
        return destination
    }
}
