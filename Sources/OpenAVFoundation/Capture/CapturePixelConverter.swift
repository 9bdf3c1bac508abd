import Foundation
import MediaEngine
import OpenCoreVideo

/// Converts captured frames into pooled buffers of any pixel format and size through the shared
/// `PixelConverter`: the still outputs' uncompressed photos. The device's pool buffer is
/// released as soon as the copy is made.
///
/// Not thread-safe: each owner uses it from one queue at a time.
final class CapturePixelConverter {
    private let converter = PixelConverter()
    private let pools = PixelBufferPools()

    /// A converter with no pool yet.
    init() {}

    /// `source` converted (and scaled) into a pooled buffer of `pixelFormat`, `width` x
    /// `height`, carrying the source's propagated attachments.
    func convert(_ source: CVPixelBuffer, to pixelFormat: OSType, width: Int, height: Int) throws(EngineError) -> CVPixelBuffer {
        guard let destination = pools.buffer(pixelFormat: pixelFormat, width: width, height: height) else {
            throw EngineError(operation: "converting a captured frame",
                              message: "cannot allocate a '\(pixelFormat.fourCharacterString)' \(width)x\(height) buffer")
        }
        try converter.convert(source, into: destination)
        CVBufferPropagateAttachments(source, destination)
        return destination
    }
}
