import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// A camera that sends H.264 through the public API, inside `scripts/vivid-vm`: the v4l2loopback
/// node fed by `H264LoopbackCamera`. Its frames reach a video data output and a movie file as
/// they come, and the camera does not decode them; ffmpeg's decode of what we stored must be
/// consecutive frames of the clip, byte for byte (a re-encode would not be).
extension VividGuestTests {
    /// Keeps the sample buffers a video data output delivers.
    final class SampleBufferLog: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var stored: [CMSampleBuffer] = []
        private var dropped: [(time: CMTime, reason: String)] = []

        /// The frames reported dropped: their times and reasons.
        var drops: [(time: CMTime, reason: String)] { condition.withLock { dropped } }

        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            condition.withLock {
                stored.append(sampleBuffer)
                condition.broadcast()
            }
        }

        func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason,
                                         attachmentModeOut: nil) as? String ?? "?"
            condition.withLock { dropped.append((sampleBuffer.presentationTimeStamp, reason)) }
        }

        /// Waits up to `timeout` seconds for `count` buffers; the buffers delivered.
        func wait(for count: Int, timeout: Double = 20) -> [CMSampleBuffer] {
            let limit = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while stored.count < count, condition.wait(until: limit) {}
                return stored
            }
        }
    }

    /// The loopback camera as an `AVCaptureDevice` in a session, its active format the H.264 one.
    static func h264Session(_ loopback: H264LoopbackCamera) throws -> (AVCaptureSession, AVCaptureDevice) {
        let camera = try #require(Self.cameras(includingLoopback: true).first { $0.v4l2DevicePath == loopback.path }, "no device for \(loopback.path)")
        let format = try #require(camera.formats.first {
            CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCMVideoCodecType_H264
                && CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == Int32(DecodedClip.width)
        }, "the camera lists an 'avc1' format")
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        try camera.lockForConfiguration()
        camera.activeFormat = format
        camera.unlockForConfiguration()
        return (session, camera)
    }

    @Test func aVideoDataOutputWithEmptySettingsDeliversTheCamerasH264FramesUndecoded() throws {
        let loopback = try H264LoopbackCamera.shared()
        let (session, camera) = try Self.h264Session(loopback)
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [:]
        // Every frame, none discarded: a compressed frame needs the ones before it.
        output.alwaysDiscardsLateVideoFrames = false
        let log = SampleBufferLog()
        output.setSampleBufferDelegate(log, queue: DispatchQueue(label: "h264 frames"))
        session.addOutput(output)
        #expect(output.videoSettings[AVVideoCodecKey] as? AVVideoCodecType == .h264, "\(output.videoSettings!)")
        session.startRunning()
        defer { session.stopRunning() }
        let buffers = log.wait(for: 60)
        #expect(!camera.backend.decodesCompressedFrames, "nothing asked the camera for pictures")
        session.stopRunning()
        try #require(buffers.count >= 60, "\(buffers.count) of 60 frames")
        #expect(buffers.allSatisfy {
            $0.imageBuffer == nil && $0.dataBuffer != nil
                && $0.formatDescription.map(CMFormatDescriptionGetMediaSubType) == kCMVideoCodecType_H264
        })
        #expect(buffers.first?.isSyncSample(at: 0) == true, "the first frame is a key frame")
        // Frames before the first key frame cannot be described: dropped. A later drop (a loaded
        // machine) leaves the frames after it undecodable up to a key frame: the longest run
        // without a loss, from a key frame on, is stored.
        let losses = log.drops.map(\.time)
        var runs: [[CMSampleBuffer]] = [[]]
        for buffer in buffers {
            if let last = runs[runs.count - 1].last,
               losses.contains(where: { $0 > last.presentationTimeStamp && $0 < buffer.presentationTimeStamp }) {
                runs.append([])
            }
            if runs[runs.count - 1].isEmpty && !buffer.isSyncSample(at: 0) { continue }
            runs[runs.count - 1].append(buffer)
        }
        let stored = runs.max { $0.count < $1.count } ?? []
        try #require(stored.count >= 20, "\(stored.count) frames at most between losses: \(log.drops.map { ($0.time.seconds, $0.reason) })")

        // Stored with AVAssetWriter as they are, they decode to consecutive frames of the clip.
        let url = CaptureSessionTests.movieURL("h264-frames.mov")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: stored[0].formatDescription)
        writer.add(input)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: stored[0].presentationTimeStamp)
        for buffer in stored { #expect(input.append(buffer)) }
        input.markAsFinished()
        let finished = DispatchSemaphore(value: 0)
        writer.finishWriting { finished.signal() }
        finished.wait()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        let frames = try loopback.clip.frames(ofMovie: url)
        let gaps = loopback.clip.gaps(in: frames)
        #expect(frames.count == stored.count && gaps?.missing == 0, "clip frames \(frames)")
    }

    @Test func aMovieFileOutputWithEmptySettingsStoresTheCamerasH264Frames() throws {
        let loopback = try H264LoopbackCamera.shared()
        let (session, camera) = try Self.h264Session(loopback)
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let connection = try #require(movie.connection(with: .video))
        movie.setOutputSettings([:], for: connection)
        #expect(movie.outputSettings(for: connection).isEmpty)
        movie.maxRecordedDuration = CMTime(value: 2, timescale: 1)
        let events = RecordingEvents()
        let url = CaptureSessionTests.movieURL("h264-passthrough.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url), timeout: 20))
        #expect(!camera.backend.decodesCompressedFrames, "the recording stores frames without pictures")
        let error = try events.finishError(of: url)
        #expect(error?.code == .maximumDurationReached && error?.recordingSuccessfullyFinished == true)

        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        #expect(streams.count == 1 && streams.first?["codec_name"] as? String == "h264")
        // Every frame decodes to the clip's own picture; after a frame lost (a loaded machine) the
        // file goes on at a key frame, and the frames left out are the ones counted dropped.
        let frames = try loopback.clip.frames(ofMovie: url)
        let gaps = try #require(loopback.clip.gaps(in: frames), "clip frames \(frames)")
        #expect(gaps.resumesAtKeyFrames && gaps.missing == movie.droppedFrameCount, "clip frames \(frames), \(movie.droppedFrameCount) dropped")
        #expect((frames.first ?? nil).map { $0 % loopback.clip.keyFrameInterval == 0 } == true, "the file starts at a key frame")
        #expect(frames.count == movie.recordedFrameCount && frames.count >= 45, "\(frames.count) frames, \(movie.recordedFrameCount) recorded")
    }

    @Test func aMovieFileOutputEncodingAnH264CameraStartsAtItsFirstDecodedPicture() throws {
        let loopback = try H264LoopbackCamera.shared()
        let (session, camera) = try Self.h264Session(loopback)
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        movie.maxRecordedDuration = CMTime(value: 2, timescale: 1)
        let connection = try #require(movie.connection(with: .video))
        #expect(movie.outputSettings(for: connection)[AVVideoCodecKey] as? String == AVVideoCodecType.h264.rawValue,
                "encodes by default")
        // Beside it, an output taking the compressed frames, to see the camera run.
        let frames = AVCaptureVideoDataOutput()
        frames.videoSettings = [:]
        let log = SampleBufferLog()
        frames.setSampleBufferDelegate(log, queue: DispatchQueue(label: "h264 frames"))
        session.addOutput(frames)
        session.startRunning()
        defer { session.stopRunning() }
        // Nothing needs pictures before the recording: the camera does not decode, then decodes
        // again from a key frame on; the file starts with the first picture.
        #expect(log.wait(for: 20).count >= 20)
        #expect(!camera.backend.decodesCompressedFrames, "nothing needs pictures yet")
        let events = RecordingEvents()
        let url = CaptureSessionTests.movieURL("h264-encoded.mov")
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url), timeout: 20))
        #expect(camera.backend.decodesCompressedFrames, "the recording needs pictures")
        let error = try events.finishError(of: url)
        #expect(error?.code == .maximumDurationReached && error?.recordingSuccessfullyFinished == true)
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        #expect(streams.first?["codec_name"] as? String == "h264" && streams.first?["start_time"] as? String == "0.000000",
                "\(streams)")
        // Every frame of the camera's two seconds (60 at 30 fps) is in the file or counted as
        // dropped, however loaded the (emulated) machine; the frames before the first picture
        // are neither.
        let pictures = try RecordedMovie(url, width: 320, height: 240).frames
        let accounted = movie.recordedFrameCount + movie.droppedFrameCount
        #expect(pictures.count == movie.recordedFrameCount && accounted >= 45 && accounted <= 62,
                "\(pictures.count) frames in the file, \(movie.recordedFrameCount) recorded, \(movie.droppedFrameCount) dropped")
        #expect(pictures.first.map { $0.time < 0.001 } == true, "first frame at \(pictures.first?.time ?? -1) s")
    }
}
