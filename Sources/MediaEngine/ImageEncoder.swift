import CFFmpeg
import Foundation
import OpenCoreVideo

/// Encodes pictures into image files (PNG, JPEG) with FFmpeg's encoders: thumbnails,
/// `CGImageDestination`, still photos, and the stream of JPEG pictures of a browser preview.
///
/// An encoder is made for one size and keeps its codec, frame and scaler, so a stream of
/// pictures encodes with no allocation per picture but the file's bytes.
package final class ImageEncoder {
    /// An image file format.
    package enum Format: Sendable, Equatable {
        /// Lossless PNG, RGB or RGBA.
        case png
        /// JPEG at a quality from 0 (smallest) to 1 (best).
        case jpeg(quality: Double)
    }

    /// The width of the pictures this encoder takes.
    package let width: Int
    /// The height of the pictures this encoder takes.
    package let height: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame = Frame()
    private let packet = Packet()
    private let converter = PixelConverter()

    /// An encoder of `width`×`height` pictures into files of `format`; `hasAlpha` writes an
    /// alpha channel (PNG only).
    package init(format: Format, width: Int, height: Int, hasAlpha: Bool = false) throws(EngineError) {
        _ = FFmpegLog.install
        self.width = width
        self.height = height
        let (codecID, pixelFormat): (AVCodecID, AVPixelFormat) = switch format {
        case .png: (AV_CODEC_ID_PNG, hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24)
        case .jpeg: (AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ420P)
        }
        guard let codec = avcodec_find_encoder(codecID) else {
            throw EngineError(operation: "encoding an image", message: "FFmpeg has no \(format) encoder")
        }
        context = avcodec_alloc_context3(codec)
        guard let context else { throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "encoding an image") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 25)
        if case .jpeg(let quality) = format {
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            // FFmpeg's JPEG quantiser: 2 (best) to 31 (smallest).
            let scale = 2 + (1 - min(max(quality, 0), 1)) * 29
            context.pointee.global_quality = Int32(scale * Double(FF_QP2LAMBDA))
        }
        try ffmpegCheck(avcodec_open2(context, codec, nil), "opening the image encoder")
        frame.pointer.pointee.format = pixelFormat.rawValue
        frame.pointer.pointee.width = context.pointee.width
        frame.pointer.pointee.height = context.pointee.height
        frame.pointer.pointee.color_range = context.pointee.color_range
        frame.pointer.pointee.quality = context.pointee.global_quality
        try ffmpegCheck(av_frame_get_buffer(frame.pointer, 0), "allocating an image")
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// Encodes the picture in `pixels` as a complete file (scaled when its size is not the
    /// encoder's) and hands its bytes to `consume`, piece by piece, valid only during each call:
    /// a caller copies them once, into whatever it sends. Image encoders have no delay: each
    /// picture's file comes out at once.
    package func encode(_ pixels: CVPixelBuffer, _ consume: (UnsafeRawBufferPointer) -> Void) throws(EngineError) {
        try ffmpegCheck(av_frame_make_writable(frame.pointer), "reusing an image")
        try converter.convert(pixels, into: frame)
        try ffmpegCheck(avcodec_send_frame(context, frame.pointer), "encoding an image")
        while true {
            let status = avcodec_receive_packet(context, packet.pointer)
            if status == cffmpeg_averror(EAGAIN) || status == cffmpeg_averror_eof() { break }
            try ffmpegCheck(status, "receiving an encoded image")
            consume(UnsafeRawBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
            av_packet_unref(packet.pointer)
        }
    }

    /// The picture in `pixels` encoded as a complete file.
    package func encode(_ pixels: CVPixelBuffer) throws(EngineError) -> Data {
        var data = Data()
        try encode(pixels) { data.append(contentsOf: $0) }
        return data
    }

    /// The picture in `pixels` encoded as a complete file of `format`. `keepsAlpha` writes the
    /// alpha channel of formats that have one (PNG only); opaque pictures are smaller without it.
    package static func encode(_ pixels: CVPixelBuffer, as format: Format, keepsAlpha: Bool = true) throws(EngineError) -> Data {
        let hasAlpha = keepsAlpha && (CVPixelFormatDescription.description(for: pixels.pixelFormatType)?.hasAlpha ?? false)
        return try ImageEncoder(format: format, width: pixels.width, height: pixels.height, hasAlpha: hasAlpha).encode(pixels)
    }
}
