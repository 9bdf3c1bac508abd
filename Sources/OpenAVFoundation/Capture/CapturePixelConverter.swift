import Foundation
import MediaEngine
import OpenCoreVideo

/// Converts captured frames into pooled buffers of any pixel format and size, turned as a
/// connection turns or mirrors the picture, through the shared `PixelConverter`: the video data
/// output's frames and the still outputs' uncompressed photos. The device's pool buffer is
/// released as soon as the copy is made.
///
/// Not thread-safe: each owner uses it from one queue at a time.
final class CapturePixelConverter {
    private let converter = PixelConverter()
    /// The delivered buffers, and the ones before a turn.
    private let pools = PixelBufferPools(capacity: 2)

    /// A converter with no pool yet.
    init() {}

    /// `source` converted (and scaled) into a pooled buffer of `pixelFormat`, `width` x
    /// `height`, and turned, with the fewest passes (a pixel move for a turn alone, one
    /// libswscale pass for format and size, both only when both are asked for); the buffer
    /// carries the source's propagated attachments.
    func convert(_ source: CVPixelBuffer, to pixelFormat: OSType, width: Int, height: Int,
                 turning turn: QuarterTurn = .identity) throws(EngineError) -> CVPixelBuffer {
        guard let destination = pools.buffer(pixelFormat: pixelFormat, width: width, height: height) else {
            throw EngineError(operation: "converting a captured frame",
                              message: "cannot allocate a '\(pixelFormat.fourCharacterString)' \(width)x\(height) buffer")
        }
        try converter.convert(source, into: destination, turning: turn) { width, height in
            pools.buffer(pixelFormat: pixelFormat, width: width, height: height)
        }
        CVBufferPropagateAttachments(source, destination)
        return destination
    }
}
