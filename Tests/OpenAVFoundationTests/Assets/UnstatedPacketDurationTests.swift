import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Music files whose packets carry no durations (issue 40, kind 4): Monkey's Audio and WMA Pro
/// and Lossless, which ffmpeg cannot write (real files from mutagen's test data). Their assets
/// last as long as ffmpeg decodes them, whether the durations are read from the headers or
/// measured from every packet, and the asset agrees with its track.
@Suite(.timeLimit(.minutes(3))) struct UnstatedPacketDurationTests {
    @Test(arguments: RealWorldFixtures.musicFilesFFmpegCannotWrite, [false, true])
    func anAssetLastsAsLongAsItsSoundDecodes(_ name: String, precise: Bool) async throws {
        let url = try RealWorldFixtures.musicFile(name)
        let decoded = try Self.decodedLength(url)
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: precise])
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(abs(duration.seconds - decoded) < 0.002, "\(name): the asset lasts \(duration.seconds) s, ffmpeg decodes \(decoded) s")
        let range = try #require(try await tracks.first?.load(.timeRange))
        #expect(range.end == duration)
    }

    @Test(arguments: RealWorldFixtures.musicFilesFFmpegCannotWrite)
    func anExportHoldsAllTheSound(_ name: String) async throws {
        let url = try RealWorldFixtures.musicFile(name)
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetAppleM4A, fileType: .m4a, name: "\(name).m4a")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        #expect(abs(try ExportOracle.duration(output) - (try Self.decodedLength(url))) < 0.03)
    }

    /// The length of what ffmpeg decodes from `url`'s first audio stream, in seconds.
    static func decodedLength(_ url: URL) throws -> Double {
        let bytes = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "s16le",
                                                "-ac", "1", "-ar", "44100", "-"]).count
        return Double(bytes / 2) / 44100
    }
}
