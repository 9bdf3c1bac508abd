import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Files that declare video streams and never fill them (issue 40, kind 5): such tracks are
/// empty, the one with frames is the one exported and shown, and a job asked for video that
/// has none fails instead of writing a file without it.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(5))) struct EmptyTrackTests {
    @Test func tracksWithoutPacketsAreEmpty() async throws {
        let url = try RealWorldFixtures.emptyVideoStreamsASF()
        let counts = try RealWorldFixtures.packetCounts(url)
        let tracks = try await AVURLAsset(url: url).load(.tracks)
        #expect(tracks.count == counts.count)
        for (track, count) in zip(tracks, counts) {
            let range = try await track.load(.timeRange)
            #expect((range.duration == .zero) == (count == 0), "track \(track.trackID): \(count) packets, \(range.duration.seconds) s")
        }
    }

    @Test func exportTakesTheVideoTrackWithFrames() async throws {
        let url = try RealWorldFixtures.emptyVideoStreamsASF()
        let counts = try RealWorldFixtures.packetCounts(url)
        let streams = try ExportOracle.streams(url)
        let filled = try #require(streams.indices.first { streams[$0]["codec_type"] as? String == "video" && counts[$0] > 0 })
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetMediumQuality, fileType: .mov, name: "filled.mov")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        #expect(try ExportOracle.streams(output).map { $0["codec_type"] as? String } == ["video", "audio"])
        #expect(try ExportOracle.frameTimes(output).count == counts[filled])

        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        let (image, _) = try await generator.image(at: CMTime(value: 1, timescale: 1))
        #expect(image.width == streams[filled]["width"] as? Int)
    }

    @Test func exportAskedForVideoThatHasNoneFails() async throws {
        let url = try RealWorldFixtures.onlyEmptyVideoASF()
        #expect(try RealWorldFixtures.packetCounts(url).first == 0)
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetMediumQuality, fileType: .mov, name: "none.mov")
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .exportFailed, "\(String(describing: session.error))")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
