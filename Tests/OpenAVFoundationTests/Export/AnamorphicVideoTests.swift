import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Non-square pixels (issue 40, kind 6): a 720x576 picture with 64:45 pixels shows 1024x576.
/// The track's size and format description say so, an export fits the shown picture into its
/// box in square pixels, and the writer writes the pixel aspect ratio it is given.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(5))) struct AnamorphicVideoTests {
    @Test func theTrackShowsItsDisplaySize() async throws {
        let url = try RealWorldFixtures.anamorphicMPEG2()
        let geometry = try RealWorldFixtures.videoGeometry(url)
        #expect(geometry.pixelAspect == "64:45")
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        let (naturalSize, descriptions) = try await track.load(.naturalSize, .formatDescriptions)
        #expect(naturalSize == CGSize(width: Double(geometry.width) * 64 / 45, height: Double(geometry.height)))
        let description = try #require(descriptions.first)
        let dimensions = CMVideoFormatDescriptionGetDimensions(description)
        #expect((Int(dimensions.width), Int(dimensions.height)) == (geometry.width, geometry.height))
        let aspect = try #require(CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio) as? [String: Any])
        #expect(aspect[kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing as String] as? Int == 64)
        #expect(aspect[kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing as String] as? Int == 45)
    }

    @Test func anExportFitsTheShownPictureInSquarePixels() async throws {
        let url = try RealWorldFixtures.anamorphicMPEG2()
        for (preset, expected) in [(AVAssetExportPreset640x480, (640, 360)), (AVAssetExportPreset1280x720, (1024, 576))] {
            let (session, output) = try await ExportOracle.export(url, preset: preset, fileType: .mov, name: "anamorphic.mov")
            try #require(session.status == .completed, "\(preset): \(String(describing: session.error))")
            let geometry = try RealWorldFixtures.videoGeometry(output)
            #expect((geometry.width, geometry.height) == expected, "\(preset)")
            #expect(geometry.pixelAspect == "1:1" && geometry.displayAspect == "16:9", "\(preset)")
        }
    }

    @Test func theWriterWritesThePixelAspectRatio() async throws {
        let url = try RealWorldFixtures.anamorphicMPEG2()
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let output = ExportOracle.outputURL("anamorphic-written.mp4")
        let job = ExportJob(asset: asset, outputURL: output, fileType: .mp4, tracks: [
            ExportJob.Track(track: track, writerSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 720, AVVideoHeightKey: 576,
                AVVideoPixelAspectRatioKey: [AVVideoPixelAspectRatioHorizontalSpacingKey: 64, AVVideoPixelAspectRatioVerticalSpacingKey: 45],
            ]),
        ], options: ExportJob.Options())
        try job.run { _ in }
        let geometry = try RealWorldFixtures.videoGeometry(output)
        #expect((geometry.width, geometry.height) == (720, 576))
        #expect(geometry.pixelAspect == "64:45" && geometry.displayAspect == "16:9")
        // Read back, the written track shows 1024x576 too.
        let written = try #require(try await AVURLAsset(url: output).loadTracks(withMediaType: .video).first)
        #expect(try await written.load(.naturalSize) == CGSize(width: 1024, height: 576))
    }
}
