import Foundation
import OpenCoreMedia

/// One stream of a file decoded in order: its demuxer, reading only that stream, feeding its
/// decoder, a packet the decoder had no room for kept for the next call, and the decoder
/// drained at the file's end. The one read-and-decode loop of the sequential file readers
/// (the File Camera's pictures, the File Microphone's and `AVAudioFile`'s samples). Not
/// thread safe.
package final class StreamDecoding {
    /// The file's demuxer.
    package let demuxer: Demuxer
    /// The stream decoded.
    package let stream: Int
    /// The stream's decoder (a new one after `restart(at:freshDecoder:)` asks for it).
    package private(set) var decoder: Decoder
    /// A packet the decoder had no room for, sent again after its frames are taken.
    private var heldPacket: Packet?
    /// Whether the end of the stream was sent to the decoder.
    private var drained = false

    /// Decodes `stream` of `demuxer` (which from now on reads only that stream); throws when
    /// the stream cannot be decoded.
    package init(demuxer: Demuxer, stream: Int) throws(EngineError) {
        self.demuxer = demuxer
        self.stream = stream
        demuxer.readOnly(streams: [stream])
        decoder = try demuxer.makeDecoder(forStream: stream)
    }

    /// Opens `url`'s first decodable stream of `kind` (a video stream that is not a cover
    /// picture first); nil when it has none.
    package convenience init?(url: URL, kind: StreamDescription.MediaKind) throws(EngineError) {
        let demuxer = try Demuxer(url: url)
        let decodable = demuxer.streams.filter { $0.kind == kind && $0.isDecodable }
        guard let chosen = decodable.first(where: { $0.attachedPicture == nil }) ?? decodable.first else { return nil }
        try self.init(demuxer: demuxer, stream: chosen.index)
    }

    /// The next decoded frame, or nil once the stream's last frame was given out.
    package func nextFrame() throws(EngineError) -> Frame? {
        while true {
            if let frame = try decoder.receiveFrame() { return frame }
            if drained { return nil }
            let packet: Packet?
            if let heldPacket { packet = heldPacket } else { packet = try demuxer.readPacket() }
            if let packet {
                heldPacket = nil
                guard packet.streamIndex == stream else { continue }
                if try !decoder.send(packet) { heldPacket = packet }
            } else {
                _ = try decoder.send(nil)
                drained = true
            }
        }
    }

    /// Gives `packet` to the decoder before the packets read after it (a packet read ahead
    /// of decoding, such as the first one read to learn the stream's start time).
    package func hold(_ packet: Packet) {
        heldPacket = packet
    }

    /// Moves the demuxer to `time` in the stream and forgets everything read and decoded: with
    /// a new decoder when `freshDecoder` (its first frames equal a fresh decode's), else the
    /// decoder flushed.
    package func restart(at time: CMTime, freshDecoder: Bool) throws(EngineError) {
        try demuxer.seek(to: time, inStream: stream)
        if freshDecoder {
            decoder = try demuxer.makeDecoder(forStream: stream)
        } else {
            decoder.flush()
        }
        heldPacket = nil
        drained = false
    }
}
