import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreMedia
@testable import MediaEngine

/// Packets read and decoded by the engine, checked against ffprobe's frame list.
@Suite(.timeLimit(.minutes(10))) struct DecoderTests {
    /// Every decoded frame's presentation time of a stream, in order, as ffprobe reports it.
    static func probeFrameTimes(_ url: URL, stream: Int) throws -> [Int64] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_entries",
                                                "frame=best_effort_timestamp", "-of", "csv=p=0", url.path])
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .compactMap { line in line.split(separator: ",").first.flatMap { Int64($0) } }
    }

    /// Decodes every frame of stream `index`, returning their best-effort timestamps.
    static func decodeAll(_ url: URL, stream index: Int) throws -> [Int64] {
        let demuxer = try Demuxer(url: url)
        let decoder = try demuxer.makeDecoder(forStream: index)
        var times: [Int64] = []
        func drain() throws {
            while let frame = try decoder.receiveFrame() { times.append(frame.bestEffortTimestamp) }
        }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == index else { continue }
            while try !decoder.send(packet) { try drain() }
            try drain()
        }
        _ = try decoder.send(nil)
        try drain()
        return times
    }

    @Test func decodesEveryVideoFrameInPresentationOrder() throws {
        let url = try Fixtures.h264AAC()
        let expected = try Self.probeFrameTimes(url, stream: 0)
        #expect(expected.count == 50)
        #expect(try Self.decodeAll(url, stream: 0) == expected)
    }

    @Test func decodesEveryAudioFrame() throws {
        let url = try Fixtures.h264AAC()
        #expect(try Self.decodeAll(url, stream: 1) == Self.probeFrameTimes(url, stream: 1))
    }

    @Test func aDecoderFromAnAudioFormatDescriptionDecodesCopiedPacketsAsTheStreamsDecoderDoes() throws {
        let demuxer = try Demuxer(url: try Fixtures.h264AAC())
        let audio = try #require(demuxer.streams.first { $0.kind == .audio })
        let description = try #require(demuxer.formatDescription(ofStream: audio.index))
        let fromStream = try demuxer.makeDecoder(forStream: audio.index)
        let fromDescription = try Decoder(audioFormat: description)
        var samples: [[Float]] = [[], []]
        var skipped = 0
        func drain(_ decoder: Decoder, into index: Int) throws {
            while let frame = try decoder.receiveFrame() {
                let f = frame.pointer
                let plane = UnsafeRawPointer(f.pointee.extended_data[0]!).assumingMemoryBound(to: Float.self)
                samples[index] += Array(UnsafeBufferPointer(start: plane, count: Int(f.pointee.nb_samples)))
            }
        }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == audio.index else { continue }
            skipped += packet.skippedLeadingSamples
            let copy = try Packet(copying: packet.bytes, presentationTime: packet.pointer.pointee.pts, duration: 1024,
                                  timescale: Int32(audio.sampleRate))
            while try !fromStream.send(packet) { try drain(fromStream, into: 0) }
            try drain(fromStream, into: 0)
            while try !fromDescription.send(copy) { try drain(fromDescription, into: 1) }
            try drain(fromDescription, into: 1)
        }
        for (decoder, index) in [(fromStream, 0), (fromDescription, 1)] {
            _ = try decoder.send(nil)
            try drain(decoder, into: index)
        }
        // The same first channel, sample for sample (AAC decodes to planar float), but for the
        // priming the container's edit list hides, which only the demuxed packets say to skip.
        #expect(skipped > 0 && samples[0].count > 40_000)
        let kept = Array(samples[1].dropFirst(skipped).prefix(samples[0].count))
        #expect(kept.count == samples[0].count && kept == samples[0])
        // A codec the engine has no code for.
        let unknown = CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: 0x7A7A_7A7A,
                                          audioStreamBasicDescription: PCMFormat(sampleRate: 48_000, channelCount: 2).audioStreamBasicDescription,
                                          channelLayoutTag: nil)
        #expect(throws: EngineError.self) { try Decoder(audioFormat: unknown) }
    }

    @Test func keyFramesAreFlagged() throws {
        let demuxer = try Demuxer(url: try Fixtures.h264AAC())
        let first = try #require(try demuxer.readPacket())
        #expect(first.isKeyFrame && first.size > 0)
    }

    @Test func seekingLandsOnAKeyFrameAtOrBeforeTheTarget() throws {
        let url = try Fixtures.make("gop10.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "4",
                                                  "-c:v", "libx264", "-g", "10", "-keyint_min", "10", "-sc_threshold", "0"])
        let demuxer = try Demuxer(url: url)
        try demuxer.seek(to: CMTime(value: 2, timescale: 1), inStream: 0)
        let packet = try #require(try demuxer.readPacket())
        let time = CMTime(ffmpegTimestamp: packet.pointer.pointee.pts, timeBase: demuxer.timeBase(ofStream: 0))
        #expect(packet.isKeyFrame)
        #expect(time <= CMTime(value: 2, timescale: 1) && time > CMTime(value: 1, timescale: 1))
    }
}
