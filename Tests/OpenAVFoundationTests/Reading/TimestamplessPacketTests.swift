import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Files whose containers leave packets without a presentation time (issue 40, kind 1): AVI with
/// B-frames (DivX) and MPEG-1 program streams. The reader hands out sample buffers with the
/// times ffmpeg derives, and exports them whole.
@Suite(.timeLimit(.minutes(5))) struct TimestamplessPacketTests {
    static let fixtures: [String] = ["divx.avi", "mpeg1.mpg"]
    /// The fixtures whose frames are compared with ffmpeg's decode: also an Xvid AVI with packed
    /// B-frames, whose packets are unpacked first (compared in `packedBFramesAreUnpacked`).
    static let decodedFixtures = fixtures + ["xvid-packed.avi"]

    static func url(_ name: String) throws -> URL {
        switch name {
        case "divx.avi": try RealWorldFixtures.divxAVI()
        case "xvid-packed.avi": try RealWorldFixtures.packedXvidAVI()
        default: try RealWorldFixtures.mpeg1ProgramStream()
        }
    }

    static func videoTrack(_ asset: AVURLAsset) async throws -> (AVAssetTrack, Int) {
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let contents = try #require(try? asset.loader.contentsBlocking().get())
        return (track, try #require(contents.tracks.first { $0.trackID == track.trackID }).streamIndex)
    }

    /// Every sample of `track` read with `outputSettings`; the reader must complete.
    static func read(_ track: AVAssetTrack, of asset: AVAsset, outputSettings: [String: Any]?) throws -> [CMSampleBuffer] {
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: outputSettings)
        reader.add(output)
        #expect(reader.startReading())
        let samples = AVAssetReaderTests.readAll(output)
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        return samples
    }

    @Test(arguments: fixtures) func passthroughSamplesHaveFFmpegsDerivedTimes(_ name: String) async throws {
        let url = try Self.url(name)
        let asset = AVURLAsset(url: url)
        let (track, index) = try await Self.videoTrack(asset)
        // The container really leaves some packets unstamped.
        let stored = try AVAssetReaderTests.probeEntries(url, stream: index, section: "packet", fields: "pts")
        #expect(stored.contains { $0[0] == "N/A" }, "\(name): every packet is stamped; the fixture tests nothing")
        let samples = try Self.read(track, of: asset, outputSettings: nil)
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-fflags", "+genpts", "-select_streams", "\(index)",
                                                "-show_entries", "packet=pts,dts", "-of", "csv=p=0", url.path])
        let derived = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
        let timeBase = try AVAssetReaderTests.timeBase(url, stream: index)
        #expect(samples.count == derived.count, "\(name)")
        #expect(samples.allSatisfy { $0.presentationTimeStamp.isNumeric && $0.decodeTimeStamp.isNumeric }, "\(name)")
        #expect(samples.map(\.presentationTimeStamp) == derived.map { AVAssetReaderTests.time($0[0], timeBase) }, "\(name)")
        #expect(samples.map(\.decodeTimeStamp) == derived.map { AVAssetReaderTests.time($0[1], timeBase) }, "\(name)")
    }

    @Test(arguments: decodedFixtures) func decodedFramesHaveFFmpegsTimes(_ name: String) async throws {
        let url = try Self.url(name)
        let asset = AVURLAsset(url: url)
        let (track, index) = try await Self.videoTrack(asset)
        let times = try Self.read(track, of: asset, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            .map(\.presentationTimeStamp)
        let expected = try RealWorldFixtures.ffmpegFrameTimes(url, stream: "\(index)").map { CMTime(value: $0.value * $0.num, timescale: $0.den) }
        #expect(times == expected, "\(name)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(name): times do not increase")
        // Every frame lies inside the track's time range, so that a reader over it misses none,
        // and the asset's duration is where its last track ends.
        let range = try await track.load(.timeRange)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        var ends: [CMTime] = []
        for each in tracks { ends.append(try await each.load(.timeRange).end) }
        #expect(duration == ends.max(), "\(name): \(duration.seconds) s, tracks end at \(ends.map(\.seconds))")
        #expect(times.allSatisfy { range.containsTime($0) }, "\(name): frames \(times.first?.seconds ?? -1)…\(times.last?.seconds ?? -1) outside \(range.start.seconds)+\(range.duration.seconds)")
    }

    @Test(arguments: decodedFixtures) func exportKeepsEveryFrame(_ name: String) async throws {
        let url = try Self.url(name)
        let (_, index) = try await Self.videoTrack(AVURLAsset(url: url))
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPreset640x480, fileType: .mov, name: "timestampless.mov")
        try #require(session.status == .completed, "\(name): \(String(describing: session.error))")
        let expected = try RealWorldFixtures.ffmpegFrameTimes(url, stream: "\(index)").count
        let times = try ExportOracle.frameTimes(output)
        #expect(times.count == expected, "\(name): \(times.count) frames exported, ffmpeg decodes \(expected)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(name)")
    }

    /// Packed B-frames (Xvid): the samples are the unpacked packets, with the sizes and decode
    /// times ffmpeg's `mpeg4_unpack_bframes` gives them (no not-coded placeholder is handed
    /// out), shown at the times ffmpeg decodes the packed file's frames at. (ffmpeg's copy keeps
    /// the times `genpts` derived for the packed slots, which show a P-frame before the B-frames
    /// decoded after it.)
    @Test func packedBFramesAreUnpacked() async throws {
        let url = try RealWorldFixtures.packedXvidAVI()
        let stored = try AVAssetReaderTests.probeEntries(url, stream: 0, section: "packet", fields: "size")
        #expect(stored.contains { Int($0[0]) ?? 100 < 10 }, "the fixture has no placeholder packets: it is not packed")
        let asset = AVURLAsset(url: url)
        let (track, index) = try await Self.videoTrack(asset)
        let samples = try Self.read(track, of: asset, outputSettings: nil)
        let expected = try RealWorldFixtures.ffmpegUnpackedPackets(url)
        let timeBase = try AVAssetReaderTests.timeBase(url, stream: index)
        #expect(samples.map(\.totalSampleSize) == expected.map(\.size))
        #expect(samples.map(\.decodeTimeStamp) == expected.map { AVAssetReaderTests.time(String($0.dts), timeBase) })
        let shown = try RealWorldFixtures.ffmpegFrameTimes(url, stream: "\(index)").map { CMTime(value: $0.value * $0.num, timescale: $0.den) }
        #expect(samples.map(\.presentationTimeStamp).sorted() == shown)
        #expect(samples.allSatisfy { $0.presentationTimeStamp >= $0.decodeTimeStamp })
    }
}
