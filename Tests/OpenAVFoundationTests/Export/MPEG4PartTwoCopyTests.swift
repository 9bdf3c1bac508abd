import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// MPEG-4 Part 2 (`mp4v`) copied out of an MP4 (issue 40, kind 7): the track's format
/// description carries its `esds` atom, and a copy keeps the decoder configuration, so that
/// ffmpeg decodes the very same pictures from it.
@Suite(.timeLimit(.minutes(5))) struct MPEG4PartTwoCopyTests {
    @Test func theFormatDescriptionCarriesTheESDS() async throws {
        let url = try RealWorldFixtures.mp4vMP4()
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        let description = try #require(try await track.load(.formatDescriptions).first)
        #expect(CMFormatDescriptionGetMediaSubType(description) == kCMVideoCodecType_MPEG4Video)
        let atoms = try #require(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms) as? [String: Any])
        let esds = try #require(atoms["esds"] as? Data)
        // An esds payload (version and flags, then the ES descriptor, tag 3) holding the
        // decoder configuration ffprobe reports.
        #expect(esds.prefix(5) == Data([0, 0, 0, 0, 3]))
        let streams = try ExportOracle.streams(url)
        let size = try #require(streams.first { $0["codec_type"] as? String == "video" }?["extradata_size"] as? Int)
        #expect(size > 0 && esds.count > size)
    }

    @Test func aPassthroughExportDecodesToTheSamePictures() async throws {
        let url = try RealWorldFixtures.mp4vMP4()
        let (session, output) = try await ExportOracle.export(url, preset: AVAssetExportPresetPassthrough, fileType: .mp4, name: "mp4v.mp4")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        let video = try #require(try ExportOracle.streams(output).first { $0["codec_type"] as? String == "video" })
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240)
        let hashes = try RealWorldFixtures.decodedFrameHashes(url)
        #expect(!hashes.isEmpty)
        #expect(try RealWorldFixtures.decodedFrameHashes(output) == hashes)
    }
}
