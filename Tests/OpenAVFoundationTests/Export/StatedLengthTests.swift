import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A stated length that disagrees with what decodes is not data missing (issue 40, kind 3): an
/// Opus file whose last page claims 2 s more than its packets hold exports whole, as long as
/// ffmpeg decodes it, instead of being refused as cut short.
@Suite(.timeLimit(.minutes(5))) struct StatedLengthTests {
    @Test func anOpusFileClaimingMoreExportsWhatDecodes() async throws {
        let url = try RealWorldFixtures.opusClaimingMore()
        let stated = try ExportOracle.duration(url)
        let samples = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"]).count / 2
        let decoded = Double(samples) / 48000
        try #require(stated > decoded + 1, "the fixture states \(stated) s and decodes \(decoded) s: nothing to test")
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetAppleM4A, fileType: .m4a, name: "claiming.m4a")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        #expect(abs(try ExportOracle.duration(output) - decoded) < 0.03)
        // The asset agrees with its track.
        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        let range = try #require(try await tracks.first?.load(.timeRange))
        #expect(duration == range.end)
    }
}
