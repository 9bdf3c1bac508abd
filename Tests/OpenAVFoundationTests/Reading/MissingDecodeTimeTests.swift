import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Containers that store presentation times only (Matroska) leave the first packets of a video
/// stream with B-frames without a decode time. The reader gives them the decode times `ffmpeg
/// -c copy` gives them (before: a copy into MP4 failed with "Invalid argument", decode times
/// going backwards).
@Suite(.timeLimit(.minutes(10))) struct MissingDecodeTimeTests {
    static func movie() throws -> URL {
        try Fixtures.make("bframes.mkv", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2",
                                          "-c:v", "libx264", "-bf", "2", "-g", "25"])
    }

    @Test func passthroughSamplesHaveFFmpegsDecodeTimes() async throws {
        let url = try Self.movie()
        let stored = try AVAssetReaderTests.probeEntries(url, stream: 0, section: "packet", fields: "dts")
        #expect(stored.first?.first == "N/A", "every packet has a decode time; the fixture tests nothing")
        let copy = try Fixtures.make("bframes-copy.mp4", ["-i", url.path, "-c", "copy"])
        let expected = try AVAssetReaderTests.probeEntries(copy, stream: 0, section: "packet", fields: "pts,dts")
        let timeBase = try AVAssetReaderTests.timeBase(copy, stream: 0)
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let samples = AVAssetReaderTests.readAll(output)
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        #expect(samples.map(\.decodeTimeStamp) == expected.map { AVAssetReaderTests.time($0[1], timeBase) })
        #expect(samples.map(\.presentationTimeStamp) == expected.map { AVAssetReaderTests.time($0[0], timeBase) })
    }

    @Test func passthroughExportIntoMP4Decodes() async throws {
        let url = try Self.movie()
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetPassthrough, fileType: .mp4,
                                                              name: "bframes-passthrough.mp4")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        let frames = try ExportOracle.frameTimes(output)
        #expect(frames.count == 50, "\(frames.count) frames decode")
    }
}
