import CFFmpeg
import Foundation

/// MPEG transport streams with a timed ID3 metadata stream, as HTTP Live Streaming carries timed
/// metadata. The `ffmpeg` command cannot make one (it has no timed ID3 input), so this copies a
/// file made by `ffmpeg` into a transport stream with FFmpeg's own muxer and adds an ID3 stream
/// whose tags are built here, byte for byte as ID3v2.4 lays them out.
public enum TimedID3Stream {
    /// One ID3v2.4 frame: a text frame (`T…`, with the description of a `TXXX`) or a `PRIV` frame.
    public enum Frame: Sendable {
        case text(id: String, text: String)
        case userText(description: String, text: String)
        case privateData(owner: String, data: [UInt8])
    }

    /// An ID3v2.4 tag holding `frames`, every text in UTF-8.
    public static func tag(_ frames: [Frame]) -> [UInt8] {
        let body = frames.flatMap { frame -> [UInt8] in
            let (id, content): (String, [UInt8]) = switch frame {
            case .text(let id, let text): (id, [3] + Array(text.utf8))
            case .userText(let description, let text): ("TXXX", [3] + Array(description.utf8) + [0] + Array(text.utf8))
            case .privateData(let owner, let data): ("PRIV", Array(owner.utf8) + [0] + data)
            }
            return Array(id.utf8) + syncSafe(content.count) + [0, 0] + content
        }
        return Array("ID3".utf8) + [4, 0, 0] + syncSafe(body.count) + body
    }

    /// Writes a transport stream to `destination` with every stream of `source` and a timed
    /// ID3 stream holding each tag at its time (seconds on the source's timeline).
    public static func write(copying source: URL, tags: [(time: Double, tag: [UInt8])], to destination: URL) throws {
        var input: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&input, source.path, nil, nil), "open \(source.path)")
        defer { avformat_close_input(&input) }
        try check(avformat_find_stream_info(input, nil), "read \(source.path)")
        var output: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&output, nil, "mpegts", destination.path), "make a transport stream")
        guard let input, let output else { throw FixtureError(message: "no FFmpeg context") }
        defer { avformat_free_context(output) }
        for index in 0..<Int(input.pointee.nb_streams) {
            let stream = avformat_new_stream(output, nil)
            try check(avcodec_parameters_copy(stream?.pointee.codecpar, input.pointee.streams[index]?.pointee.codecpar), "copy a stream")
            stream?.pointee.codecpar.pointee.codec_tag = 0
        }
        guard let id3 = avformat_new_stream(output, nil) else { throw FixtureError(message: "no ID3 stream") }
        id3.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_DATA
        id3.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_TIMED_ID3
        id3.pointee.time_base = AVRational(num: 1, den: 90_000)
        try check(avio_open(&output.pointee.pb, destination.path, AVIO_FLAG_WRITE), "create \(destination.path)")
        defer { avio_closep(&output.pointee.pb) }
        try check(avformat_write_header(output, nil), "write the header")

        let packet = av_packet_alloc()
        defer {
            var freed = packet
            av_packet_free(&freed)
        }
        var pending = tags.sorted { $0.time < $1.time }[...]
        // Each tag goes in before the first packet of the source at or after its time.
        func writeTags(before seconds: Double) throws {
            while let next = pending.first, next.time <= seconds {
                pending.removeFirst()
                let tagPacket = av_packet_alloc()
                defer {
                    var freed = tagPacket
                    av_packet_free(&freed)
                }
                try check(av_new_packet(tagPacket, Int32(next.tag.count)), "make a tag packet")
                next.tag.withUnsafeBufferPointer { tagPacket?.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
                let time = Int64((next.time * 90_000).rounded())
                tagPacket?.pointee.pts = time
                tagPacket?.pointee.dts = time
                tagPacket?.pointee.stream_index = id3.pointee.index
                let outputBase = output.pointee.streams[Int(id3.pointee.index)]!.pointee.time_base
                av_packet_rescale_ts(tagPacket, AVRational(num: 1, den: 90_000), outputBase)
                try check(av_interleaved_write_frame(output, tagPacket), "write a tag")
            }
        }
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard let packet else { break }
            let index = Int(packet.pointee.stream_index)
            let inputBase = input.pointee.streams[index]!.pointee.time_base
            let dts = packet.pointee.dts != Int64.min ? packet.pointee.dts : packet.pointee.pts
            if dts != Int64.min { try writeTags(before: Double(dts) * av_q2d(inputBase)) }
            av_packet_rescale_ts(packet, inputBase, output.pointee.streams[index]!.pointee.time_base)
            packet.pointee.pos = -1
            try check(av_interleaved_write_frame(output, packet), "copy a packet")
        }
        try writeTags(before: .infinity)
        try check(av_write_trailer(output), "finish the transport stream")
    }

    /// `value` in the four seven-bit bytes ID3v2 sizes are written in.
    private static func syncSafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result >= 0 else { throw FixtureError(message: "FFmpeg could not \(what): error \(result)") }
    }
}
