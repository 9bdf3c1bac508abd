import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A recording made from the File Camera holds the frames of the clip it plays, in order: the
/// clip is one the Test Pattern Camera recorded (each frame carrying its index as a barcode),
/// and ffmpeg's decode of the second recording reads those indices, looping at the clip's end.
extension CaptureSessionTests {
    @Test(.timeLimit(.minutes(2)))
    func aRecordingFromTheFileCameraHoldsTheClipsFramesInOrder() throws {
        // The clip: 1.5 s of the Test Pattern Camera at 640x480 30 fps.
        let collector = CaptureFrameCollector()
        let (patternSession, patternMovie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                                       queue: DispatchQueue(label: "frames"))
        patternMovie.maxRecordedDuration = CMTime(value: 3, timescale: 2)
        let clip = Self.movieURL("file-camera-source.mov")
        let events = RecordingEvents()
        patternSession.startRunning()
        patternMovie.startRecording(to: clip, recordingDelegate: events)
        #expect(try events.finishError(of: clip)?.code == .maximumDurationReached)
        patternSession.stopRunning()
        let source = try RecordedMovie(clip, width: 640, height: 480).frames.map(\.index)
        try #require(source.count == 45 && source.allSatisfy { $0 != nil }, "the clip's indices: \(source)")
        let clipIndices = source.compactMap { $0 }

        // Played by the File Camera into a movie output for 2.5 s: past the clip's end.
        let camera = try AVCaptureDevice.fileCamera(playing: clip)
        defer { CaptureDeviceRegistry.removeVirtualDevice(camera.backend) }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        session.commitConfiguration()
        movie.maxRecordedDuration = CMTime(value: 5, timescale: 2)
        let played = Self.movieURL("file-camera-recording.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: played, recordingDelegate: events)
        #expect(try events.finishError(of: played)?.code == .maximumDurationReached)
        #expect(movie.droppedFrameCount == 0)

        // Each recorded frame is the clip's frame after the one before it, the first again
        // after the last.
        let recorded = try RecordedMovie(played, width: 640, height: 480).frames.map(\.index)
        #expect(recorded.count == 75, "\(recorded.count) frames")
        let positions = recorded.map { index in index.flatMap { clipIndices.firstIndex(of: $0) } }
        #expect(positions.allSatisfy { $0 != nil }, "frames not of the clip: \(recorded)")
        for (previous, next) in zip(positions, positions.dropFirst()) {
            guard let previous, let next else { continue }
            #expect(next == (previous + 1) % clipIndices.count, "clip frame \(next) after \(previous)")
        }
    }
}
