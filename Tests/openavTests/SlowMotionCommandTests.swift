import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// The capture chapter's slow motion: a 240 fps recording of the Test Pattern Camera, its
/// middle second scaled to eight and exported at 30 fps, checked by the camera's frame index
/// (the barcode in each frame) against the recording's own frames as ffprobe times them.
/// Real time (the recording): this runs in the test script's real-time phase.
@Suite(.timeLimit(.minutes(10))) struct SlowMotionCommandTests {
    @Test func aMiddleSecondSlowedEightTimesShowsEveryRecordedFrameOnce() async throws {
        let recording = EditCommandTests.output("slowmo-240.mov")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, [
            "record", "--video", "Test Pattern Camera", "--format", "640x480@240", "--duration", "3", recording])
        try #require(status == 0, "\(errors)")
        let recorded = try RecordedMovie(URL(fileURLWithPath: recording), width: 640, height: 480)
        try #require(recorded.frames.count > 600, "the recording has \(recorded.frames.count) frames")

        // The guide's way: the whole recording in a composition, 1–2 s scaled to 8 s.
        let asset = AVURLAsset(url: URL(fileURLWithPath: recording))
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        let second = CMTime(value: 1, timescale: 1)
        composition.scaleTimeRange(CMTimeRange(start: second, duration: second), toDuration: CMTime(value: 8, timescale: 1))
        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset640x480))
        let output = URL(fileURLWithPath: EditCommandTests.output("slowmo-30.mp4"))
        session.outputURL = output
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        session.timeRange = CMTimeRange(start: second, duration: CMTime(value: 8, timescale: 1))
        await session.export()
        try #require(session.status == .completed, "\(String(describing: session.error))")

        // Output frame n shows the recorded frame at or before 1 + n/240 s.
        let slowed = try RecordedMovie(output, width: 640, height: 480)
        #expect(slowed.frames.count == 240)
        let recordedInSecond = recorded.frames.filter { $0.time >= 1 && $0.time < 2 }
        let expected = (0..<240).map { n -> Int? in
            recorded.frames.last { $0.time <= 1 + Double(n) / 240 + 1e-6 }?.index
        }
        let shown = slowed.frames.map(\.index)
        #expect(shown == expected, "first difference at \(zip(shown, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        // Every frame the camera recorded in that second is shown, in order.
        let indices = recordedInSecond.compactMap(\.index)
        #expect(indices.allSatisfy { shown.contains($0) })
        #expect(shown.compactMap { $0 } == shown.compactMap { $0 }.sorted())
    }
}
