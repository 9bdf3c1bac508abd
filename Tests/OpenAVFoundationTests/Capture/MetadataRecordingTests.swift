import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// The Test Pattern Camera's QR code read by `AVCaptureMetadataOutput` at 1080p30 for 30 s
/// while the same session records a movie: zxing-cpp reads the frame index each code carries,
/// the frame index barcode in ffmpeg's decode of the movie says which frames were recorded.
/// Real-time (a `CaptureSessionTests` extension): on a busy machine the reader must keep up
/// and the recording drop nothing.
extension CaptureSessionTests {
    /// The frame index and time of each QR code the output found, in the order found.
    final class FrameIndexCodes: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var found: [(index: Int, time: CMTime)] = []

        var codes: [(index: Int, time: CMTime)] { condition.withLock { found } }

        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                            from connection: AVCaptureConnection) {
            condition.withLock {
                for case let code as AVMetadataMachineReadableCodeObject in metadataObjects where code.type == .qr {
                    if let index = code.stringValue.flatMap(Int.init) { found.append((index, code.time)) }
                }
                condition.broadcast()
            }
        }

        /// Waits until a code at least `frames` frames after the first was found, at most
        /// `seconds`; whether one was.
        func wait(forFramesAfterFirst frames: Int, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            return condition.withLock {
                func done() -> Bool { found.last.map { $0.index - found[0].index >= frames } ?? false }
                while !done(), condition.wait(until: deadline) {}
                return done()
            }
        }
    }

    /// Shows or hides the Test Pattern Camera's QR code of the frame index.
    static func showFrameIndexQRCode(_ shown: Bool, on camera: AVCaptureDevice) throws {
        try camera.lockForConfiguration()
        camera.showsFrameIndexQRCode = shown
        camera.unlockForConfiguration()
    }

    @Test(.timeLimit(.minutes(3)))
    func theTestPatternCamerasQRCodeIsReadInNearlyEveryFrameBesideA1080pRecording() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        #expect(camera.uniqueID == TestPatternCamera().uniqueID && !camera.showsFrameIndexQRCode)
        try Self.showFrameIndexQRCode(true, on: camera)
        defer { try? Self.showFrameIndexQRCode(false, on: camera) }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let metadata = AVCaptureMetadataOutput()
        session.addOutput(metadata)
        metadata.metadataObjectTypes = [.qr]
        let codes = FrameIndexCodes()
        metadata.setMetadataObjectsDelegate(codes, queue: DispatchQueue(label: "codes"))
        session.commitConfiguration()
        #expect(camera.activeFormat.formatDescription.dimensions.width == 1920)

        let events = RecordingEvents()
        let url = Self.movieURL("frame-index-qr-1080p.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url)))
        // 30 s of frames after the first code read.
        #expect(codes.wait(forFramesAfterFirst: 900, seconds: 60), "codes read: \(codes.codes.count)")
        // Codes found so far are of frames the movie output had been given.
        let found = codes.codes
        movie.stopRecording()
        #expect(try events.finishError(of: url) == nil)
        session.stopRunning()

        // The recording: every frame index in order, none dropped.
        let recorded = try RecordedMovie(url, width: 480, height: 270)
        #expect(movie.droppedFrameCount == 0 && recorded.skippedIndices == 0,
                "dropped \(movie.droppedFrameCount), skipped \(String(describing: recorded.skippedIndices))")
        let recordedIndices = recorded.frames.compactMap(\.index)
        // The frames both saw: the recording starts after the first code is read, and may stop
        // before the last one (the output may read a frame before the movie output is given it).
        let first = try #require(found.first)
        let span = max(first.index, try #require(recordedIndices.first))...(try #require(recordedIndices.last))
        #expect(recordedIndices.filter { span.contains($0) }.count == span.count && span.count >= 880,
                "the recording holds every frame of \(span)")
        let read = found.filter { span.contains($0.index) }

        // Codes read in at least 99 % of the frames in that span, each once, in order, each
        // with its own frame's time (frames are 1/30 s apart on the host clock, one a tick).
        let indices = read.map(\.index)
        #expect(indices == indices.sorted() && Set(indices).count == indices.count, "each frame's code once, in order")
        let missed = span.count - indices.count
        #expect(Double(indices.count) >= 0.99 * Double(span.count), "read \(indices.count) of \(span.count) frames")
        #expect(read.allSatisfy { $0.time.timescale == 30 && $0.time.value - Int64($0.index) == first.time.value - Int64(first.index) },
                "times that are not their frames': \(read.filter { $0.time.value - Int64($0.index) != first.time.value - Int64(first.index) }.prefix(5))")
        print("frame index QR at 1080p30 beside a recording: read \(indices.count) of \(span.count) frames (missed \(missed))")
    }
}
