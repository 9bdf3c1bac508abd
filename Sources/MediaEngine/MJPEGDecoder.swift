import CFFmpeg
import OpenCoreVideo

/// Decodes Motion-JPEG pictures from memory, one at a time, as a camera delivers them (UVC
/// webcams send their larger sizes as MJPEG): FFmpeg's `mjpeg` decoder without frame threads, so
/// each picture comes out as soon as it goes in, converted by the shared `PixelConverter` into
/// the caller's pixel buffer. Used by one thread at a time.
package final class MJPEGDecoder {
    private let decoder: Decoder
    private let packet = Packet()

    /// A decoder; throws when FFmpeg has no MJPEG decoder.
    package init() throws(EngineError) {
        guard let parameters = avcodec_parameters_alloc() else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "allocating MJPEG codec parameters")
        }
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
        }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_MJPEG
        decoder = try Decoder(parameters: UnsafePointer(parameters),
                              timeBase: AVRational(num: 1, den: 1_000_000), lowDelay: true)
    }

    /// Decodes one JPEG picture and converts it into `destination` (any supported format and
    /// size). Throws on corrupt data, leaving `destination` unspecified.
    package func decode(_ bytes: UnsafeRawBufferPointer, into destination: CVPixelBuffer,
                        converter: PixelConverter) throws(EngineError) {
        guard let base = bytes.baseAddress, bytes.count > 0, let size = Int32(exactly: bytes.count) else {
            throw EngineError(ffmpegCode: cffmpeg_averror_invaliddata(), operation: "decoding an empty MJPEG picture")
        }
        // Not reference-counted: FFmpeg copies the bytes (with its padding) when it takes the packet.
        packet.pointer.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointer.pointee.size = size
        defer {
            packet.pointer.pointee.data = nil
            packet.pointer.pointee.size = 0
        }
        _ = try decoder.send(packet)
        guard let frame = try decoder.receiveFrame() else {
            throw EngineError(ffmpegCode: cffmpeg_averror_invaliddata(), operation: "decoding an MJPEG picture")
        }
        try converter.convert(frame, into: destination)
    }
}
