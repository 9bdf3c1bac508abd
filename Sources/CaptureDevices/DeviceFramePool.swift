import Foundation
import OpenCoreVideo

/// The pixel buffers a capture device delivers its frames in: a `CVPixelBufferPool` of one pixel
/// format and size, each buffer reused as soon as the client lets it go. Its allocation
/// threshold (about 256 MB of frames, between 4 and 16 buffers) makes a client that holds every
/// buffer cause dropped frames rather than unbounded memory. Shared by the cameras and screens.
final class DeviceFramePool: @unchecked Sendable {
    private let pool: CVPixelBufferPool
    private let threshold: NSDictionary

    /// A pool of `width`×`height` buffers of `pixelFormat` carrying `attachments` (a Y'CbCr
    /// matrix, colour primaries: propagated to every buffer); throws when the buffers cannot be
    /// allocated.
    init(pixelFormat: OSType, width: Int, height: Int, attachments: [String: Any] = [:]) throws(CaptureDeviceError) {
        var attributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey: pixelFormat, kCVPixelBufferWidthKey: width, kCVPixelBufferHeightKey: height,
        ]
        if !attachments.isEmpty { attributes[kCVBufferPropagatedAttachmentsKey] = attachments }
        var made: CVPixelBufferPool?
        CVPixelBufferPoolCreate(nil, [kCVPixelBufferPoolMaximumBufferAgeKey: 0] as CFDictionary,
                                attributes as CFDictionary, &made)
        var first: CVPixelBuffer?
        if let made { CVPixelBufferPoolCreatePixelBuffer(nil, made, &first) }
        guard let made, let first else {
            throw CaptureDeviceError(.unavailable, "cannot allocate \(width)x\(height) '\(pixelFormat.fourCharacterString)' pixel buffers")
        }
        pool = made
        // How many buffers may be out (held by the client) at once.
        let bufferLimit = max(4, min(16, (256 << 20) / max(1, CVPixelBufferGetDataSize(first))))
        threshold = [kCVPixelBufferPoolAllocationThresholdKey: bufferLimit] as NSDictionary
    }

    /// A buffer (its pixels left as the last frame had them), or nil when the client holds every
    /// buffer the threshold allows.
    func makeBuffer() -> CVPixelBuffer? {
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, threshold, &buffer)
        return buffer
    }
}
