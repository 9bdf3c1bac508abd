import CFFmpeg
import OpenCoreVideo

/// Decodes a camera's compressed frames from memory, one at a time, as the camera delivers them:
/// Motion-JPEG pictures (UVC webcams send their larger sizes as MJPEG) or H.264 access units in
/// Annex B form (start codes, parameter sets in band, as UVC and V4L2 H.264 cameras send them).
/// FFmpeg's decoder without frame threads and in low-delay mode, so each frame comes out as soon
/// as it goes in, converted by the shared `PixelConverter` into the caller's pixel buffer. Used
/// by one thread at a time.
package final class CameraFrameDecoder {
    /// The compressed formats a camera delivers.
    package enum Codec: Sendable {
        /// Motion-JPEG: each frame one JPEG picture.
        case motionJPEG
        /// H.264 in Annex B form: each frame one access unit; frames before the first key frame
        /// (with its parameter sets) cannot be decoded.
        case h264

        /// FFmpeg's codec.
        var codecID: AVCodecID {
            switch self {
            case .motionJPEG: AV_CODEC_ID_MJPEG
            case .h264: AV_CODEC_ID_H264
            }
        }
    }

    private let decoder: Decoder
    private let codec: Codec
    private let packet = Packet()

    /// A decoder for `codec`; throws when FFmpeg has no decoder for it.
    package init(_ codec: Codec) throws(EngineError) {
        self.codec = codec
        guard let parameters = avcodec_parameters_alloc() else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: "allocating \(codec) codec parameters")
        }
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
        }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = codec.codecID
        decoder = try Decoder(parameters: UnsafePointer(parameters),
                              timeBase: AVRational(num: 1, den: 1_000_000), lowDelay: true)
    }

    /// Forgets the frames decoded so far, as when decoding starts again after a pause: an H.264
    /// stream decodes again from its next key frame.
    package func reset() {
        decoder.flush()
    }

    /// Decodes one frame and converts it into `destination` (any supported format and size).
    /// Throws on corrupt or undecodable data (an H.264 frame before the first key frame),
    /// leaving `destination` unspecified.
    package func decode(_ bytes: UnsafeRawBufferPointer, into destination: CVPixelBuffer,
                        converter: PixelConverter) throws(EngineError) {
        guard let base = bytes.baseAddress, bytes.count > 0, let size = Int32(exactly: bytes.count) else {
            throw EngineError(ffmpegCode: cffmpeg_averror_invaliddata(), operation: "decoding an empty \(codec) frame")
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
            throw EngineError(ffmpegCode: cffmpeg_averror_invaliddata(), operation: "decoding a \(codec) frame")
        }
        try converter.convert(frame, into: destination)
    }
}
