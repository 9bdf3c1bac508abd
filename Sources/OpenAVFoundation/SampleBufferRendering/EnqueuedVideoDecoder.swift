import Display
import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// Decodes the compressed video buffers an app enqueues into a video renderer, on the renderer's
/// decoding queue alone: FFmpeg's decoder for the buffers' format (opened again when it changes),
/// each picture as a pixel buffer a window shows.
///
/// A decoder holds back as many pictures as the stream may reorder (two for H.264 with B-frames),
/// which a player gets at the end of a file but an app feeding a layer never signals: when the
/// feeding stops with pictures held, `drain()` takes them out. To go on after a drain, the packets
/// since the last key frame are sent again (the decoder forgot its references) and their pictures,
/// given out before, are dropped by their times.
final class EnqueuedVideoDecoder {
    /// A decoded picture: its presentation time, its pixels, and whether its buffer asked to be
    /// shown at once.
    struct Picture {
        let time: CMTime
        let buffer: CVPixelBuffer
        let immediately: Bool
    }

    private var decoder: (decoder: Decoder, format: CMFormatDescription)?
    private let converter = PixelConverter()
    private let pools: PixelBufferPools
    /// The packets sent since the last key frame (none kept past 1024: a stream that
    /// refreshes without key frames is not held in memory; a drain then loses the references
    /// until the next key frame), and the times of the pictures given out since.
    private var sinceKeyFrame: [Packet] = []
    private var sinceKeyFrameComplete = true
    private static let replayLimit = 1024
    private var givenOut: Set<Int64> = []
    /// Times of packets whose buffers asked to be shown at once.
    private var immediateTimes: Set<Int64> = []
    /// Whether the decoder was drained and must be sent `sinceKeyFrame` again before going on.
    private var drained = false
    /// Packets sent since the decoder last gave out all it had.
    private var held = 0

    /// A decoder keeping up to `pictures` converted pictures in its pool.
    init(pictures: Int) {
        pools = PixelBufferPools(capacity: pictures)
    }

    /// Whether packets were sent whose pictures the decoder still holds back.
    var holdsPictures: Bool { held > 0 }

    /// The pictures of a buffer of compressed packets that the decoder gives out now.
    func decode(_ sampleBuffer: CMSampleBuffer, immediately: Bool) throws(EngineError) -> [Picture] {
        guard let format = sampleBuffer.formatDescription else {
            throw EngineError(operation: "decoding an enqueued sample buffer", message: "the sample buffer has no format description")
        }
        if decoder.map({ !CMFormatDescriptionEqual($0.format, otherFormatDescription: format) }) ?? true {
            decoder = (try Decoder(videoFormat: format), format)
            forget()
        }
        guard let decoding = decoder?.decoder else { return [] }
        var pictures: [Picture] = []
        for packet in try Packet.packets(of: sampleBuffer, timeBase: decoding.timeBase) {
            if packet.isKeyFrame {
                sinceKeyFrame.removeAll()
                sinceKeyFrameComplete = true
                drained = false
            }
            if drained {
                for earlier in sinceKeyFrame { try send(earlier, to: decoding, into: &pictures) }
                drained = false
            }
            if packet.isKeyFrame { givenOut.removeAll() }
            if immediately { immediateTimes.insert(packet.pointer.pointee.pts) }
            if sinceKeyFrameComplete { sinceKeyFrame.append(packet) }
            if sinceKeyFrame.count > Self.replayLimit {
                sinceKeyFrame.removeAll()
                givenOut.removeAll()
                sinceKeyFrameComplete = false
            }
            try send(packet, to: decoding, into: &pictures)
        }
        return pictures
    }

    /// Sends a packet and adds the pictures the decoder gives out, but those given out before.
    private func send(_ packet: Packet, to decoding: Decoder, into pictures: inout [Picture]) throws(EngineError) {
        _ = try decoding.send(packet)
        held += 1
        try receive(from: decoding, into: &pictures)
    }

    /// Adds the pictures the decoder gives out now, but those given out before.
    private func receive(from decoding: Decoder, into pictures: inout [Picture]) throws(EngineError) {
        while let frame = try decoding.receiveFrame() {
            held = max(0, held - 1)
            let time = frame.pointer.pointee.pts
            if sinceKeyFrameComplete, !givenOut.insert(time).inserted { continue }
            pictures.append(Picture(time: frame.presentationTime, buffer: try pixelBuffer(of: frame),
                                    immediately: immediateTimes.remove(time) != nil))
        }
    }

    /// The pictures the decoder holds back, taken out by ending the stream; the next packet that
    /// is not a key frame first sends those since the last key frame again.
    func drain() throws(EngineError) -> [Picture] {
        guard let decoding = decoder?.decoder, held > 0 else { return [] }
        var pictures: [Picture] = []
        _ = try decoding.send(nil)
        try receive(from: decoding, into: &pictures)
        decoding.flush()
        held = 0
        drained = true
        return pictures
    }

    /// Forgets everything sent (a flush): the next packet should be a key frame.
    func flush() {
        decoder?.decoder.flush()
        forget()
    }

    private func forget() {
        sinceKeyFrame.removeAll()
        sinceKeyFrameComplete = true
        givenOut.removeAll()
        immediateTimes.removeAll()
        drained = false
        held = 0
    }

    /// A decoded frame as a picture a window shows: the frame's own memory in a format windows
    /// take, else converted to NV12 in a pooled buffer.
    private func pixelBuffer(of frame: MediaEngine.Frame) throws(EngineError) -> CVPixelBuffer {
        if let shared = CVBuffer.sharing(frame), VideoWindow.pixelFormats.contains(shared.pixelFormatType) { return shared }
        guard let buffer = pools.buffer(pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, width: frame.width, height: frame.height) else {
            throw EngineError(operation: "converting a decoded picture", message: "cannot allocate a \(frame.width)x\(frame.height) pixel buffer")
        }
        try converter.convert(frame, into: buffer)
        return buffer
    }
}
