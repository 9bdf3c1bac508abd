import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The V4L2 pixel formats the camera backend takes, each with the CoreVideo format of the same
/// memory layout (how the driver's buffer is read) and the CoreVideo format delivered.
///
/// Y'CbCr formats (YUYV, UYVY, NV12, YU12) are delivered as `'420v'` (NV12, video range), the
/// format cameras deliver on Apple platforms and encoders take without a further conversion;
/// RGB formats are delivered as `'BGRA'`. The shared `PixelConverter` does the conversion (a
/// plane copy for NV12). Compressed formats (`compressedCodec`) — Motion-JPEG (`MJPG`, `JPEG`),
/// which USB webcams use for their larger sizes, and H.264 (`H264`, Annex B) — are decoded by the
/// engine's `CameraFrameDecoder` and delivered as `'420v'`; H.264 frames can also be delivered as
/// they are (`codecType`), made into `'avc1'` samples by the engine's `H264SampleMaker`.
package struct V4L2PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// The V4L2 four-character code (`V4L2_PIX_FMT_…`, little-endian: `'Y' | 'U' << 8 | …`).
    package let fourCC: UInt32
    /// The CoreVideo format with the driver buffer's memory layout; nil for the compressed
    /// formats, whose buffers hold one compressed frame each.
    package let sourcePixelFormat: OSType?
    /// The codec of a compressed format; nil for the uncompressed ones.
    package let compressedCodec: CameraFrameDecoder.Codec?
    /// The CoreVideo format of the delivered pixel buffers.
    package let deliveredPixelFormat: OSType
    /// The CoreMedia codec of a compressed format whose frames can be delivered as they are
    /// (`kCMVideoCodecType_H264`); nil for the others (Motion-JPEG is always decoded).
    package var codecType: OSType? { compressedCodec == .h264 ? kCMVideoCodecType_H264 : nil }

    /// Every format taken (a camera's formats keep the driver's `VIDIOC_ENUM_FMT` order).
    package static let supported: [V4L2PixelFormat] = {
        let ycbcr = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let bgra = kCVPixelFormatType_32BGRA
        return [
            V4L2PixelFormat("YUYV", source: kCVPixelFormatType_422YpCbCr8_yuvs, delivered: ycbcr),
            V4L2PixelFormat("UYVY", source: kCVPixelFormatType_422YpCbCr8, delivered: ycbcr),
            V4L2PixelFormat("NV12", source: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, delivered: ycbcr),
            V4L2PixelFormat("YU12", source: kCVPixelFormatType_420YpCbCr8Planar, delivered: ycbcr),
            V4L2PixelFormat("RGB3", source: kCVPixelFormatType_24RGB, delivered: bgra),
            V4L2PixelFormat("BGR3", source: kCVPixelFormatType_24BGR, delivered: bgra),
            // 32-bit RGB: V4L2 names the byte order of a little-endian word, CoreVideo the memory order.
            V4L2PixelFormat("AR24", source: kCVPixelFormatType_32BGRA, delivered: bgra),
            V4L2PixelFormat("XR24", source: kCVPixelFormatType_32BGRA, delivered: bgra),
            V4L2PixelFormat("BA24", source: kCVPixelFormatType_32ARGB, delivered: bgra),
            V4L2PixelFormat("BX24", source: kCVPixelFormatType_32ARGB, delivered: bgra),
            V4L2PixelFormat("AB24", source: kCVPixelFormatType_32RGBA, delivered: bgra),
            V4L2PixelFormat("XB24", source: kCVPixelFormatType_32RGBA, delivered: bgra),
            V4L2PixelFormat("RA24", source: kCVPixelFormatType_32ABGR, delivered: bgra),
            V4L2PixelFormat("RX24", source: kCVPixelFormatType_32ABGR, delivered: bgra),
            V4L2PixelFormat("MJPG", compressed: .motionJPEG),
            V4L2PixelFormat("JPEG", compressed: .motionJPEG),
            V4L2PixelFormat("H264", compressed: .h264),
        ]
    }()

    private init(_ code: String, source: OSType, delivered: OSType) {
        fourCC = Self.fourCC(code)
        sourcePixelFormat = source
        compressedCodec = nil
        deliveredPixelFormat = delivered
    }

    /// A compressed format, decoded into `'420v'`.
    private init(_ code: String, compressed codec: CameraFrameDecoder.Codec) {
        fourCC = Self.fourCC(code)
        sourcePixelFormat = nil
        compressedCodec = codec
        deliveredPixelFormat = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    }

    /// The format for a V4L2 code, or nil when the backend does not take it.
    package static func supported(fourCC: UInt32) -> V4L2PixelFormat? {
        supported.first { $0.fourCC == fourCC }
    }

    /// `v4l2_fourcc(a, b, c, d)` of a four-character string.
    package static func fourCC(_ code: String) -> UInt32 {
        code.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// A V4L2 code as its four characters (`"YUYV"`).
    package static func name(of fourCC: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((fourCC >> (8 * $0)) & 0xFF) }, as: UTF8.self)
    }

    /// Whether the delivered buffers are Y'CbCr (and carry a matrix attachment).
    var deliversYCbCr: Bool { deliveredPixelFormat != kCVPixelFormatType_32BGRA }

    package var description: String { Self.name(of: fourCC) }
}
