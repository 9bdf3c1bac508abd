import Foundation
import Testing
import TestSupport
import OpenAVFoundation

/// The examples of the documentation catalog (`Sources/OpenAVFoundation/OpenAVFoundation.docc`),
/// word for word, so that they compile; those that need no device or sound server also run.
/// An article's example changed there is changed here.
@Suite struct DocumentationExampleTests {
    // UsingAssets.md
    static func usingAssets(_ url: URL) async throws -> (CMTime, Int, CGSize) {
        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        let video = try await asset.loadTracks(withMediaType: .video).first
        let size = try await video?.load(.naturalSize)
        print(duration.seconds, tracks.count, size ?? .zero)
        return (duration, tracks.count, size ?? .zero)
    }

    // Playback.md (compiled; playing needs a sound server, which the playback tests start).
    static func playback(_ url: URL) -> (AVPlayer, NSKeyValueObservation, Any, CVPixelBuffer?) {
        let player = AVPlayer(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        player.currentItem?.add(output)
        let observation = player.observe(\.status) { player, _ in
            if player.status == .readyToPlay { player.play() }
        }
        let ticks = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: .main) { time in
            print(time.seconds)
        }
        // In the display loop: the picture due now.
        var shown: CVPixelBuffer?
        let time = output.itemTime(forHostTime: CACurrentMediaTime())
        if output.hasNewPixelBuffer(forItemTime: time) {
            let picture = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil)
            shown = picture
        }
        return (player, observation, ticks, shown)
    }

    // Playback.md, The Player Layer (compiled; windows need a display, which the layer tests start).
    static func playerLayer(_ player: AVPlayer) throws -> AVDisplayWindow {
        let layer = AVPlayerLayer(player: player)
        layer.videoGravity = .resizeAspect
        let window = try AVDisplayWindow(layer: layer, title: "Movie", size: CGSize(width: 1280, height: 720))
        window.keyHandler = { key in
            if key == .character("f") { window.toggleFullScreen() }
        }
        return window
    }

    // MediaCapture.md, Showing the User What's Being Recorded (compiled, as above).
    static func capturePreview(_ session: AVCaptureSession) throws -> (AVDisplayWindow, CGPoint) {
        let preview = AVCaptureVideoPreviewLayer(session: session)
        preview.videoGravity = .resizeAspectFill
        let window = try AVDisplayWindow(layer: preview, title: "Camera")
        let pointOfInterest = preview.captureDevicePointConverted(fromLayerPoint: CGPoint(x: 100, y: 80))
        return (window, pointOfInterest)
    }

    // Editing.md
    static func editing(_ asset: AVAsset, _ trimmedURL: URL) async throws {
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough) else { return }
        session.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        try await session.export(to: trimmedURL, as: .mp4)
    }

    // MediaCapture.md (compiled; the capture tests record).
    static func mediaCapture(_ movieURL: URL, _ recordingDelegate: any AVCaptureFileOutputRecordingDelegate) throws {
        let session = AVCaptureSession()
        guard let camera = AVCaptureDevice.default(for: .video) else { return }
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.startRunning()
        movie.startRecording(to: movieURL, recordingDelegate: recordingDelegate)
    }

    // ExportAndReading.md
    static func exportAndReading(_ asset: AVAsset, _ videoTrack: AVAssetTrack, _ exportURL: URL) async throws -> Int {
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPreset1280x720) else { return 0 }
        try await session.export(to: exportURL, as: .mp4)

        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ])
        reader.add(output)
        reader.startReading()
        var pictures = 0
        while let sample = output.copyNextSampleBuffer() {
            _ = CMSampleBufferGetImageBuffer(sample)
            pictures += 1
        }
        return pictures
    }

    // TimeAndMediaRepresentations.md
    static func time() -> (CMTime, CMTime) {
        let start = CMTime(value: 1, timescale: 2)
        let range = CMTimeRange(start: start, duration: CMTime(seconds: 3, preferredTimescale: 600))
        let end = range.end              // 3.5 s, exactly
        let frame = CMTimeMultiply(CMTime(value: 1, timescale: 30), multiplier: 45)
        print(end.seconds, frame.seconds, CMTIME_IS_NUMERIC(frame))
        return (end, frame)
    }

    @Test func theTimeExampleComputesExactly() {
        let (end, frame) = Self.time()
        #expect(end.seconds == 3.5 && frame == CMTime(value: 3, timescale: 2))
    }

    @Test func theAssetReadingAndExportExamplesRun() async throws {
        let url = try Fixtures.h264AAC()
        let (duration, tracks, size) = try await Self.usingAssets(url)
        #expect(duration.seconds > 1.9 && tracks == 2 && size == CGSize(width: 320, height: 240))
        let folder = Fixtures.folder.appendingPathComponent("docc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        try await Self.editing(asset, folder.appendingPathComponent("trimmed.mp4"))
        let trimmed = try await AVURLAsset(url: folder.appendingPathComponent("trimmed.mp4")).load(.duration)
        // A passthrough trim is frame-exact: the edit list gives exactly the asked second.
        #expect(trimmed == CMTime(value: 1, timescale: 1), "trimmed to \(trimmed.seconds) s")
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(try await Self.exportAndReading(asset, track, folder.appendingPathComponent("export.mp4")) == 50)
    }
}
