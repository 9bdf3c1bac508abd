import CFFmpeg
import OpenCoreVideo

/// The mapping between CoreVideo pixel formats and FFmpeg's (`AVPixelFormat`), with the range
/// that CoreVideo folds into the format code and FFmpeg keeps beside it.
package enum PixelFormatMapping {
    /// One CoreVideo format and the FFmpeg format with the same memory layout.
    struct Entry {
        let pixelFormatType: OSType
        let ffmpegFormat: AVPixelFormat
        let fullRange: Bool
    }

    static let entries: [Entry] = [
        Entry(pixelFormatType: kCVPixelFormatType_32BGRA, ffmpegFormat: AV_PIX_FMT_BGRA, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_32ARGB, ffmpegFormat: AV_PIX_FMT_ARGB, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_32RGBA, ffmpegFormat: AV_PIX_FMT_RGBA, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_32ABGR, ffmpegFormat: AV_PIX_FMT_ABGR, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_24RGB, ffmpegFormat: AV_PIX_FMT_RGB24, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_24BGR, ffmpegFormat: AV_PIX_FMT_BGR24, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_OneComponent8, ffmpegFormat: AV_PIX_FMT_GRAY8, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_422YpCbCr8, ffmpegFormat: AV_PIX_FMT_UYVY422, fullRange: false),
        Entry(pixelFormatType: kCVPixelFormatType_422YpCbCr8_yuvs, ffmpegFormat: AV_PIX_FMT_YUYV422, fullRange: false),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, ffmpegFormat: AV_PIX_FMT_NV12, fullRange: false),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, ffmpegFormat: AV_PIX_FMT_NV12, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, ffmpegFormat: AV_PIX_FMT_P010LE, fullRange: false),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr10BiPlanarFullRange, ffmpegFormat: AV_PIX_FMT_P010LE, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr8Planar, ffmpegFormat: AV_PIX_FMT_YUV420P, fullRange: false),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr8PlanarFullRange, ffmpegFormat: AV_PIX_FMT_YUV420P, fullRange: true),
        Entry(pixelFormatType: kCVPixelFormatType_420YpCbCr8PlanarFullRange, ffmpegFormat: AV_PIX_FMT_YUVJ420P, fullRange: true),
    ]

    /// FFmpeg's format and range for a CoreVideo format, or nil when FFmpeg has none.
    package static func ffmpegFormat(for pixelFormatType: OSType) -> (format: AVPixelFormat, fullRange: Bool)? {
        entries.first { $0.pixelFormatType == pixelFormatType }.map { ($0.ffmpegFormat, $0.fullRange) }
    }

    /// The CoreVideo format with the layout of an FFmpeg format in the given range, or nil when
    /// CoreVideo has none (the frame must then be converted).
    package static func pixelFormatType(for format: AVPixelFormat, fullRange: Bool) -> OSType? {
        let candidates = entries.filter { $0.ffmpegFormat == format }
        return (candidates.first { $0.fullRange == fullRange } ?? candidates.first)?.pixelFormatType
    }
}
