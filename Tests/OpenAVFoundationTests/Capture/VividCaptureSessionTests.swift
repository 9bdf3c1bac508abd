import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// The public capture API on a real V4L2 camera: the kernel's `vivid` driver inside
/// `scripts/vivid-vm`. CaptureDevicesTests' `VividVMTests` boots the VM and runs every
/// `VividGuestTests` suite there, one test at a time; outside the VM these are skipped.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["OPENAV_VIVID_VM"] == "1",
                             "runs inside scripts/vivid-vm (VividVMTests boots it)"), .timeLimit(.minutes(20)))
struct VividGuestTests {
    /// A session with `camera` at `preset` and a video data output whose frames `collector`
    /// keeps; not running.
    static func session(_ camera: AVCaptureDevice, preset: AVCaptureSession.Preset) throws
        -> (session: AVCaptureSession, collector: CaptureFrameCollector) {
        let session = AVCaptureSession()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        let collector = CaptureFrameCollector()
        output.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "vivid frames"))
        session.addOutput(output)
        return (session, collector)
    }

    /// A runtime error notification of `session`: its error, once posted.
    final class RuntimeErrorLog: @unchecked Sendable {
        private let posted = DispatchSemaphore(value: 0)
        private var error: AVError?
        private var token: NSObjectProtocol?

        init(_ session: AVCaptureSession) {
            token = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification,
                                                           object: session, queue: nil) { [self] notification in
                error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError
                posted.signal()
            }
        }

        deinit { token.map(NotificationCenter.default.removeObserver) }

        /// The posted error's code, waiting up to `timeout` seconds for it; nil when none came.
        func wait(timeout: Double = 10) -> AVError.Code? {
            posted.wait(timeout: .now() + timeout) == .success ? error?.code : nil
        }
    }

    /// The cameras discovered: vivid's and the virtual one, and with `includingLoopback` the
    /// H.264 loopback node (a test rig, listed while `H264LoopbackCamera` feeds it).
    static func cameras(includingLoopback: Bool = false) -> [AVCaptureDevice] {
        AVCaptureDevice.DiscoverySession(deviceTypes: [.external, .builtInWideAngleCamera], mediaType: .video,
                                         position: .unspecified).devices
            .filter { includingLoopback || $0.localizedName != H264LoopbackCamera.cardName }
    }

    @Test func discoveryListsVividBeforeTheVirtualCamera() throws {
        let cameras = Self.cameras()
        #expect(cameras.map(\.localizedName) == ["vivid", "vivid", "Test Pattern Camera"])
        #expect(cameras.first?.deviceType == .external && cameras.first?.position == .unspecified)
        let vivid = try #require(AVCaptureDevice.default(for: .video))
        #expect(vivid.uniqueID == "platform:vivid-000:vivid:vivid" && vivid.isConnected)
        // Its formats include 320x180 at up to 60 frames per second.
        let small = vivid.formats.filter {
            CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == 320
                && CMVideoFormatDescriptionGetDimensions($0.formatDescription).height == 180
        }
        #expect(small.contains { $0.videoSupportedFrameRateRanges.contains { $0.maxFrameRate == 60 } })
    }

    @Test func aSessionDeliversVividFramesThroughAVideoDataOutput() throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let (session, collector) = try Self.session(camera, preset: .medium)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= 20 })
        session.stopRunning()
        let frames = collector.frames
        #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 })
        #expect(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time })
        let now = CMClockGetTime(CMClock.hostTimeClock)
        #expect(abs(CMTimeSubtract(now, try #require(frames.last).time).seconds) < 5, "on the host clock")
    }

    @Test func anUnplugMidRecordingStopsTheSessionAndFinishesAPlayableFile() throws {
        let camera = try #require(Self.cameras().first { $0.uniqueID == "platform:vivid-001:vivid:vivid" })
        let backend = try #require(camera.backend as? V4L2Camera)
        let (session, collector) = try Self.session(camera, preset: .low)
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let events = RecordingEvents()
        let url = CaptureSessionTests.movieURL("vivid-unplugged.mov")
        let runtimeError = RuntimeErrorLog(session)
        let unplugged = DispatchSemaphore(value: 0)
        let unplugToken = NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification,
                                                                 object: camera, queue: nil) { _ in unplugged.signal() }
        defer { NotificationCenter.default.removeObserver(unplugToken) }
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url), timeout: 20))
        let seen = collector.frames.count
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= seen + 10 })
        try backend.setValue(1, ofControlNamed: "disconnect")
        #expect(runtimeError.wait() == .deviceWasDisconnected, "a runtime error is posted")
        #expect(unplugged.wait(timeout: .now() + 5) == .success, "wasDisconnectedNotification is posted for the camera")
        #expect(!session.isRunning)
        #expect(!camera.isConnected)
        let error = try #require(try events.finishError(of: url))
        #expect(error.code == .deviceWasDisconnected && error.recordingSuccessfullyFinished == true)
        // ffprobe reads the movie: H.264 at vivid's smallest size, the frames recorded.
        let streams = try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
        #expect(streams.count == 1 && streams.first?["codec_name"] as? String == "h264")
        #expect(streams.first?["width"] as? Int == 320 && streams.first?["height"] as? Int == 180)
        let packets = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "v:0",
                                                                     "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
                                                                     url.path]), as: UTF8.self)
        #expect(Int(packets.trimmingCharacters(in: .whitespacesAndNewlines)) == movie.recordedFrameCount
                    && movie.recordedFrameCount >= 5, "\(packets) frames in the file, \(movie.recordedFrameCount) recorded")
    }
}
