import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Every kind of file the reading issue names, made by ffmpeg, read every way the reader
/// reads, and compared with ffprobe's packets and frames and ffmpeg's own decode.
@Suite(.timeLimit(.minutes(10))) struct AVAssetReaderFixtureTests {
    /// A fixture: its file name and the ffmpeg arguments that make it.
    struct Fixture: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    static let video = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25"]
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]

    static let fixtures: [Fixture] = [
        Fixture(name: "h264-bframes.mp4", arguments: video + tone + ["-t", "1", "-c:v", "libx264", "-bf", "3", "-c:a", "aac"]),
        Fixture(name: "hevc.mp4", arguments: video + ["-t", "1", "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1"]),
        Fixture(name: "prores.mov", arguments: video + tone + ["-t", "1", "-c:v", "prores_ks", "-c:a", "pcm_s16le"]),
        Fixture(name: "mjpeg.mov", arguments: video + ["-t", "1", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p"]),
        Fixture(name: "vp9-opus.webm", arguments: video + tone + ["-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"]),
        Fixture(name: "aac.m4a", arguments: tone + ["-t", "1", "-c:a", "aac"]),
        Fixture(name: "mp3.mp3", arguments: tone + ["-t", "1", "-c:a", "libmp3lame"]),
        Fixture(name: "pcm.wav", arguments: tone + ["-t", "1", "-c:a", "pcm_s16le"]),
        Fixture(name: "vfr.mp4", arguments: video + ["-t", "2", "-vf", "select='lt(mod(n\\,5)\\,2)'", "-fps_mode", "vfr", "-c:v", "libx264"]),
        Fixture(name: "two-audio.mov", arguments: video + tone + ["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=44100",
                                                                   "-t", "1", "-map", "0:v", "-map", "1:a", "-map", "2:a",
                                                                   "-c:v", "libx264", "-c:a", "aac"]),
        Fixture(name: "fragmented.mp4", arguments: video + tone + ["-t", "2", "-c:v", "libx264", "-g", "10", "-c:a", "aac",
                                                                  "-movflags", "frag_keyframe+empty_moov"]),
        Fixture(name: "mpegts.ts", arguments: video + tone + ["-t", "1", "-c:v", "libx264", "-c:a", "aac"]),
    ]

    /// A fixture with an edit list: a copy cut at a non-key frame.
    static func editList() throws -> URL {
        let source = try Fixtures.make("editlist-source.mp4", video + ["-t", "2", "-c:v", "libx264", "-g", "50"])
        return try Fixtures.make("editlist.mp4", ["-ss", "0.3", "-i", source.path, "-c", "copy"])
    }

    static func url(_ fixture: Fixture) throws -> URL {
        fixture.name == "editlist.mp4" ? try editList() : try Fixtures.make(fixture.name, fixture.arguments)
    }

    static let allFixtures = fixtures + [Fixture(name: "editlist.mp4", arguments: [])]

    @Test(arguments: allFixtures)
    func passthroughSamplesAreFFprobesPackets(_ fixture: Fixture) throws {
        let url = try Self.url(fixture)
        let asset = AVURLAsset(url: url)
        let tracks = try #require(try? asset.loader.contentsBlocking().get()).tracks
        #expect(asset.tracks.contains { $0.mediaType == .video || $0.mediaType == .audio }, "\(fixture.name) has no tracks")
        for track in asset.tracks where track.mediaType == .video || track.mediaType == .audio {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
            reader.add(output)
            #expect(reader.startReading())
            let samples = AVAssetReaderTests.readAll(output)
            #expect(!samples.isEmpty, "\(fixture.name)")
            let index = tracks.first { $0.trackID == track.trackID }!.streamIndex
            let timeBase = try AVAssetReaderTests.timeBase(url, stream: index)
            let packets = try AVAssetReaderTests.probeEntries(url, stream: index, section: "packet", fields: "pts,dts")
            #expect(samples.count == packets.count, "\(fixture.name) stream \(index)")
            #expect(samples.map(\.presentationTimeStamp) == packets.map { AVAssetReaderTests.time($0[0], timeBase) },
                    "\(fixture.name) stream \(index)")
            #expect(samples.map(\.decodeTimeStamp) == packets.map { AVAssetReaderTests.time($0[1], timeBase) },
                    "\(fixture.name) stream \(index)")
            #expect(reader.status == .completed)
        }
    }

    @Test(arguments: allFixtures)
    func decodedSamplesAreFFmpegsFrames(_ fixture: Fixture) throws {
        let url = try Self.url(fixture)
        let asset = AVURLAsset(url: url)
        let tracks = try #require(try? asset.loader.contentsBlocking().get()).tracks
        #expect(asset.tracks.contains { $0.mediaType == .video || $0.mediaType == .audio }, "\(fixture.name) has no tracks")
        for track in asset.tracks where track.mediaType == .video || track.mediaType == .audio {
            let index = tracks.first { $0.trackID == track.trackID }!.streamIndex
            let reader = try AVAssetReader(asset: asset)
            let isVideo = track.mediaType == .video
            let settings: [String: Any] = isVideo
                ? [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                : [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true]
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
            output.alwaysCopiesSampleData = false
            reader.add(output)
            #expect(reader.startReading())
            let samples = AVAssetReaderTests.readAll(output)
            #expect(!samples.isEmpty, "\(fixture.name)")
            #expect(reader.status == .completed, "\(fixture.name) stream \(index): \(String(describing: reader.error))")
            if isVideo {
                let timeBase = try AVAssetReaderTests.timeBase(url, stream: index)
                let frames = try AVAssetReaderTests.probeEntries(url, stream: index, section: "frame", fields: "best_effort_timestamp")
                #expect(samples.map(\.presentationTimeStamp) == frames.map { AVAssetReaderTests.time($0[0], timeBase) },
                        "\(fixture.name) stream \(index)")
                let reference = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:\(index)",
                                                                    "-frames:v", "1", "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
                let first = try #require(samples.first?.imageBuffer)
                #expect(PixelComparison.psnr(PixelComparison.packed(first, bytesPerPixel: 4), reference) >= 40,
                        "\(fixture.name) stream \(index)")
            } else {
                let asbd = try #require(samples.first?.formatDescription?.audioStreamBasicDescription)
                let reference = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:\(index)",
                                                            "-f", "f32le", "-"])
                let frames = samples.reduce(0) { $0 + $1.numSamples }
                #expect(frames * Int(asbd.mChannelsPerFrame) * 4 == reference.count, "\(fixture.name) stream \(index)")
            }
        }
    }
}
