import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreMedia
@testable import MediaEngine

/// The demuxer's view of files ffmpeg made, checked against ffprobe's.
@Suite(.timeLimit(.minutes(10))) struct DemuxerTests {
    /// An ffprobe rational such as "1/12800".
    static func rational(_ text: Any?) throws -> (Int64, Int32) {
        let parts = try #require(text as? String).split(separator: "/").compactMap { Int64($0) }
        try #require(parts.count == 2)
        return (parts[0], Int32(parts[1]))
    }

    @Test func describesStreamsAsFFprobeDoes() throws {
        let url = try Fixtures.h264AAC()
        let probe = try Fixtures.probe(url)
        let probeStreams = try #require(probe["streams"] as? [[String: Any]])
        let demuxer = try Demuxer(url: url)

        #expect(demuxer.formatName == (probe["format"] as? [String: Any])?["format_name"] as? String)
        #expect(demuxer.streams.count == probeStreams.count)
        let formatDurationText = (probe["format"] as? [String: Any])?["duration"] as? String
        let formatDuration = try #require(formatDurationText.flatMap(Double.init))
        #expect(abs(demuxer.duration.seconds - formatDuration) < 1e-6)

        for (stream, expected) in zip(demuxer.streams, probeStreams) {
            #expect(stream.index == expected["index"] as? Int)
            #expect(stream.kind.rawValue == expected["codec_type"] as? String)
            // Exact durations: ffprobe's duration_ts in the stream's time base.
            let (num, den) = try Self.rational(expected["time_base"])
            let durationUnits = try #require(expected["duration_ts"] as? Int)
            #expect(stream.duration == CMTime(value: Int64(durationUnits) * num, timescale: den))
        }
        let video = try #require(demuxer.streams.first { $0.kind == .video })
        #expect(video.codecType == FourCharCode(fourCC: "avc1"))
        #expect((video.width, video.height) == (320, 240))
        #expect(video.frameRate == 25)
        let audio = try #require(demuxer.streams.first { $0.kind == .audio })
        #expect(audio.codecType == FourCharCode(fourCC: "aac "))
        #expect(audio.sampleRate == 48000 && audio.channelCount == 2)
        #expect(audio.languageCode == "eng")
    }

    @Test func readsOtherContainersAndCodecs() throws {
        let webm = try Fixtures.make("vp9-opus.webm", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi", "-i", "sine=sample_rate=48000",
            "-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus",
        ])
        let demuxer = try Demuxer(url: webm)
        #expect(demuxer.formatName.contains("webm"))
        #expect(demuxer.streams.map(\.codecType) == [FourCharCode(fourCC: "vp09"), FourCharCode(fourCC: "opus")])

        let prores = try Fixtures.make("prores.mov", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=24", "-t", "0.5", "-c:v", "prores_ks", "-profile:v", "3",
        ])
        #expect(try Demuxer(url: prores).streams.first?.codecType == FourCharCode(fourCC: "apch"))

        let wav = try Fixtures.make("pcm.wav", ["-f", "lavfi", "-i", "sine=sample_rate=44100", "-t", "1", "-c:a", "pcm_s16le"])
        let pcm = try #require(try Demuxer(url: wav).streams.first)
        #expect(pcm.codecType == FourCharCode(fourCC: "lpcm") && pcm.sampleRate == 44100 && pcm.channelCount == 1)
    }

    @Test func reportsTheDisplayMatrixRotation() throws {
        let plain = try Fixtures.make("unrotated.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.5", "-c:v", "libx264"])
        let rotated = try Fixtures.make("rotated.mp4", ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        // ffprobe prints the matrix as three rows of "index: a b u" numbers.
        let probeStreams = try #require(try Fixtures.probe(rotated)["streams"] as? [[String: Any]])
        let sideData = try #require(probeStreams.first?["side_data_list"] as? [[String: Any]])
        let printed = try #require(sideData.first?["displaymatrix"] as? String)
        let expected = printed.split(whereSeparator: \.isNewline).flatMap { $0.split(separator: " ").dropFirst().compactMap { Int32($0) } }
        #expect(try Demuxer(url: rotated).streams.first?.displayMatrix == expected)
        #expect(expected == [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        #expect(try Demuxer(url: plain).streams.first?.displayMatrix == nil)
    }

    @Test func missingFileIsAnErrorNotACrash() {
        #expect {
            try Demuxer(url: Fixtures.folder.appendingPathComponent("does-not-exist.mov"))
        } throws: { error in
            (error as? EngineError)?.code == cffmpeg_averror(ENOENT)
        }
    }

    @Test func garbageIsInvalidData() throws {
        let garbage = Fixtures.folder.appendingPathComponent("garbage.mov")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        #expect(throws: EngineError.self) { try Demuxer(url: garbage) }
    }

    @Test func truncatedMovieWithoutItsIndexIsAnError() throws {
        // moov at the end (ffmpeg's default for MP4), cut in half: the index is gone.
        let whole = try Fixtures.h264AAC()
        let data = try Data(contentsOf: whole)
        let truncated = Fixtures.folder.appendingPathComponent("truncated.mp4")
        try data.prefix(data.count / 2).write(to: truncated)
        #expect(throws: EngineError.self) { try Demuxer(url: truncated) }
    }

    @Test func onlyFileURLsAreAccepted() {
        #expect(throws: EngineError.self) { try Demuxer(url: URL(string: "http://127.0.0.1/clip.mp4")!) }
    }

    @Test func timestampsConvertExactly() {
        #expect(CMTime(ffmpegTimestamp: 3003, timeBase: AVRational(num: 1, den: 90000)) == CMTime(value: 3003, timescale: 90000))
        #expect(CMTime(ffmpegTimestamp: 5, timeBase: AVRational(num: 1001, den: 30000)) == CMTime(value: 5005, timescale: 30000))
        #expect(!CMTime(ffmpegTimestamp: cffmpeg_nopts_value(), timeBase: AVRational(num: 1, den: 1000)).isValid)
        #expect(CMTime(value: 1, timescale: 30).ffmpegTimestamp(in: AVRational(num: 1, den: 90000)) == 3000)
        #expect(CMTime.invalid.ffmpegTimestamp(in: AVRational(num: 1, den: 90000)) == cffmpeg_nopts_value())
    }
}
