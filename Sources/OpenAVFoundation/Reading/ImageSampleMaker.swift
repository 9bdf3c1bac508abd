import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// Wraps pictures in sample buffers, with one format description per pixel format and size
/// (made again only when those change).
struct ImageSampleMaker {
    private var format: (key: [Int], description: CMFormatDescription)?

    /// A sample buffer holding `pixelBuffer` shown at `time` for `duration`.
    mutating func sample(_ pixelBuffer: CVPixelBuffer, time: CMTime, duration: CMTime) throws(AVError) -> CMSampleBuffer {
        let key = [Int(pixelBuffer.pixelFormatType), pixelBuffer.width, pixelBuffer.height]
        if format?.key != key {
            var description: CMFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixelBuffer, formatDescriptionOut: &description)
            guard let description else { throw AVError(.decodeFailed, reason: "cannot describe a picture") }
            format = (key, description)
        }
        var timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: time, decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: pixelBuffer, formatDescription: format!.description,
                                                 sampleTiming: &timing, sampleBufferOut: &sample)
        guard let sample else { throw AVError(.decodeFailed, reason: "cannot wrap a picture") }
        return sample
    }
}
