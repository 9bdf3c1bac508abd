import CFFmpeg
import Foundation
import OpenCoreVideo

/// Encodes single pictures into image files (PNG, JPEG) with FFmpeg's encoders: thumbnails,
/// `CGImageDestination`, and still photos.
package enum ImageEncoder {
    /// An image file format.
    package enum Format: Sendable, Equatable {
        /// Lossless PNG, RGB or RGBA.
        case png
        /// JPEG at a quality from 0 (smallest) to 1 (best).
        case jpeg(quality: Double)
    }

    /// The picture in `pixels` encoded as a complete file of `format`. `keepsAlpha` writes the
    /// alpha channel of formats that have one (PNG only); opaque pictures are smaller without it.
    package static func encode(_ pixels: CVPixelBuffer, as format: Format, keepsAlpha: Bool = true) throws(EngineError) -> Data {
        _ = FFmpegLog.install
        let hasAlpha = keepsAlpha && (CVPixelFormatDescription.description(for: pixels.pixelFormatType)?.hasAlpha ?? false)
        let (codecID, pixelFormat): (AVCodecID, AVPixelFormat) = switch format {
        case .png: (AV_CODEC_ID_PNG, hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24)
        case .jpeg: (AV_CODEC_ID_MJPEG, AV_PIX_FMT_YUVJ420P)
        }
        guard let codec = avcodec_find_encoder(codecID) else {
            throw EngineError(operation: "encoding an image", message: "FFmpeg has no \(format) encoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        guard let context else { throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "encoding an image") }
        context.pointee.width = Int32(pixels.width)
        context.pointee.height = Int32(pixels.height)
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

        let frame = Frame()
        frame.pointer.pointee.format = pixelFormat.rawValue
        frame.pointer.pointee.width = context.pointee.width
        frame.pointer.pointee.height = context.pointee.height
        frame.pointer.pointee.color_range = context.pointee.color_range
        frame.pointer.pointee.quality = context.pointee.global_quality
        try ffmpegCheck(av_frame_get_buffer(frame.pointer, 0), "allocating an image")
        try PixelConverter().convert(pixels, into: frame)

        try ffmpegCheck(avcodec_send_frame(context, frame.pointer), "encoding an image")
        try ffmpegCheck(avcodec_send_frame(context, nil), "finishing an image")
        let packet = Packet()
        var data = Data()
        while true {
            let status = avcodec_receive_packet(context, packet.pointer)
            if status == cffmpeg_averror_eof() { break }
            try ffmpegCheck(status, "receiving an encoded image")
            data.append(packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
            av_packet_unref(packet.pointer)
        }
        return data
    }
}
