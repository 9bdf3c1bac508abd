import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A passthrough writer input is refused (`canAdd` false) by a container that cannot carry its
/// codec as it is (issue 40, kind 10), as ffmpeg refuses to copy it there.
@Suite(.timeLimit(.minutes(10))) struct PassthroughContainerTests {
    @Test func aQuickTimeMovieRefusesOpusAndAnMP4TakesIt() async throws {
        let track = try #require(try await AVURLAsset(url: try RealWorldFixtures.opusOgg()).loadTracks(withMediaType: .audio).first)
        let description = try #require(try await track.load(.formatDescriptions).first)
        for (fileType, expected) in [(AVFileType.mov, false), (.mp4, true)] {
            let writer = try AVAssetWriter(outputURL: ExportOracle.outputURL("opus.\(fileType == .mov ? "mov" : "mp4")"), fileType: fileType)
            let input = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: description)
            #expect(writer.canAdd(input) == expected, "\(fileType.rawValue)")
        }
    }
}
