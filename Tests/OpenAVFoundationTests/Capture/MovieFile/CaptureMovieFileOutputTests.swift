import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// What a movie file output told its recording delegate, in order; tests wait on it.
final class RecordingEvents: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    enum Event: Equatable {
        case started(URL), paused(URL), resumed(URL), willFinish(URL), finished(URL)
    }

    private let condition = NSCondition()
    private var stored: [Event] = []
    private var finishErrors: [URL: AVError?] = [:]

    var events: [Event] { condition.withLock { stored } }

    private func add(_ event: Event, error: AVError?? = nil) {
        condition.withLock {
            stored.append(event)
            if case .finished(let url) = event, let error { finishErrors[url] = error }
            condition.broadcast()
        }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        add(.started(fileURL))
    }

    func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        add(.paused(fileURL))
    }

    func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        add(.resumed(fileURL))
    }

    func fileOutput(_ output: AVCaptureFileOutput, willFinishRecordingTo fileURL: URL, from connections: [AVCaptureConnection],
                    error: (any Error)?) {
        add(.willFinish(fileURL))
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
                    error: (any Error)?) {
        add(.finished(outputFileURL), error: .some(error as? AVError))
    }

    /// Waits for an event (at most `timeout` seconds); whether it came.
    func wait(for event: Event, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !stored.contains(event) {
            if !condition.wait(until: deadline) { return stored.contains(event) }
        }
        return true
    }

    /// Waits for a recording to finish; its error (nil: none), or a failure when it never finished.
    func finishError(of url: URL, timeout: TimeInterval = 20) throws -> AVError? {
        guard wait(for: .finished(url), timeout: timeout) else {
            throw FixtureError(message: "the recording to \(url.lastPathComponent) did not finish in \(timeout) s")
        }
        return condition.withLock { finishErrors[url] ?? nil }
    }
}

/// Recording from the virtual devices with `AVCaptureMovieFileOutput`; ffprobe/ffmpeg read the
/// files back, the camera's barcodes and flashes and the microphone's beeps are the oracle.
extension CaptureSessionTests {
    /// A session with the virtual camera (and microphone), a movie file output and a video data
    /// output that counts frames (what the tests wait on).
    static func recordingSession(preset: AVCaptureSession.Preset, audio: Bool, collector: CaptureFrameCollector,
                                 queue: DispatchQueue) throws -> (AVCaptureSession, AVCaptureMovieFileOutput) {
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        if audio {
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
        }
        let movie = AVCaptureMovieFileOutput()
        #expect(session.canAddOutput(movie))
        session.addOutput(movie)
        let frames = AVCaptureVideoDataOutput()
        frames.setSampleBufferDelegate(collector, queue: queue)
        session.addOutput(frames)
        session.commitConfiguration()
        return (session, movie)
    }

    /// The test pattern compresses to almost nothing: lossless key frames only make bytes
    /// (about 100 kB a second at 1280x720).
    nonisolated(unsafe) static let bulkySettings: [String: Any] = [
        AVVideoCodecKey: AVVideoCodecType.h264,
        AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 1.0, AVVideoMaxKeyFrameIntervalKey: 1],
    ]

    static func movieURL(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    @Test func movieFileOutputDefaults() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: true, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        defer { withExtendedLifetime(session) {} }
        #expect(movie.movieFragmentInterval == CMTime(value: 10, timescale: 1))
        #expect(!movie.maxRecordedDuration.isValid && movie.maxRecordedFileSize == 0 && movie.minFreeDiskSpaceLimit == 0)
        #expect(movie.availableVideoCodecTypes == [.h264, .hevc])
        #expect(!movie.isRecording && movie.outputFileURL == nil && movie.recordedDuration == .zero)
        #expect(Set(movie.connections.flatMap(\.mediaTypes)) == [.video, .audio])
        let video = try #require(movie.connection(with: .video))
        let settings = movie.outputSettings(for: video)
        #expect(settings[AVVideoCodecKey] as? String == AVVideoCodecType.h264.rawValue)
        #expect(settings[AVVideoWidthKey] as? Int == 640 && settings[AVVideoHeightKey] as? Int == 480)
        let audio = movie.outputSettings(for: try #require(movie.connection(with: .audio)))
        #expect(audio[AVFormatIDKey] as? AudioFormatID == kAudioFormatMPEG4AAC)
        #expect(audio[AVSampleRateKey] as? Int == 48000)
        movie.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: video)
        #expect(movie.outputSettings(for: video)[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
        #expect(movie.outputSettings(for: video)[AVVideoWidthKey] as? Int == 640)
        movie.setOutputSettings(nil, for: video)
        #expect(movie.outputSettings(for: video)[AVVideoCodecKey] as? String == AVVideoCodecType.h264.rawValue)
    }

    @Test func tenSecondRecordingIsContinuousAndInSync() throws {
        let collector = CaptureFrameCollector()
        let queue = DispatchQueue(label: "frames")
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: true, collector: collector, queue: queue)
        let events = RecordingEvents()
        let url = Self.movieURL("ten-seconds.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(movie.isRecording && movie.outputFileURL == url)
        #expect(events.wait(for: .started(url)))
        // Ten seconds of frames, counted by the data output beside the recording.
        let seen = collector.frames.count
        #expect(collector.wait(timeout: 20) { frames, _ in frames.count >= seen + 300 })
        movie.stopRecording()
        #expect(!movie.isRecording)
        #expect(try events.finishError(of: url) == nil)
        #expect(events.events == [.started(url), .willFinish(url), .finished(url)])

        let recorded = try RecordedMovie(url, width: 640, height: 480)
        #expect(recorded.codecs == ["h264", "aac"])
        let duration = try #require(recorded.duration)
        #expect(abs(duration - movie.recordedDuration.seconds) <= 1.0 / 30 + 1e-3,
                "ffprobe says \(duration) s, the output \(movie.recordedDuration.seconds) s")
        #expect(movie.recordedDuration.seconds > 9.5)
        #expect(recorded.frames.count == movie.recordedFrameCount)
        // Every frame index is there, but for the drops the output reported.
        #expect(recorded.skippedIndices == movie.droppedFrameCount)
        // Beep and flash pairs line up within one frame.
        let offsets = recorded.audioVideoOffsets
        #expect(offsets.count >= 9, "flashes at \(recorded.flashTimes), beeps at \(recorded.beepOnsets)")
        #expect(offsets.allSatisfy { abs($0) < 1.0 / 30 }, "A/V offsets \(offsets)")
        // The file size reported is the file's, to within its movie header.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
        #expect(movie.recordedFileSize <= size && size - movie.recordedFileSize < 64 * 1024)
    }

    @Test func maxRecordedDurationStopsWithAFinishedFile() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        movie.maxRecordedDuration = CMTime(value: 2, timescale: 1)
        let title = AVMutableMetadataItem()
        title.identifier = .commonIdentifierTitle
        title.value = "Recorded on Linux" as NSString
        movie.metadata = [title]
        let events = RecordingEvents()
        let url = Self.movieURL("two-seconds.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        let error = try #require(try events.finishError(of: url))
        #expect(error.code == .maximumDurationReached)
        #expect(error.recordingSuccessfullyFinished == true)
        #expect(!movie.isRecording)
        let recorded = try RecordedMovie(url, width: 640, height: 480)
        #expect(recorded.codecs == ["h264"])
        #expect(abs(try #require(recorded.duration) - 2) <= 1.0 / 30 + 1e-3)
        #expect(recorded.frames.count + movie.droppedFrameCount == 60)
        let tags = (recorded.probe["format"] as? [String: Any])?["tags"] as? [String: Any]
        #expect(tags?["title"] as? String == "Recorded on Linux")
    }

    @Test func maxRecordedFileSizeStopsWithAFinishedFile() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .hd1280x720, audio: true, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        movie.setOutputSettings(Self.bulkySettings, for: try #require(movie.connection(with: .video)))
        let limit: Int64 = 300_000
        movie.maxRecordedFileSize = limit
        let events = RecordingEvents()
        let url = Self.movieURL("small.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        let error = try #require(try events.finishError(of: url))
        #expect(error.code == .maximumFileSizeReached)
        #expect(error.recordingSuccessfullyFinished == true)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
        // Over the limit by at most a frame or two and the movie header.
        #expect(size >= limit && size < limit + 64 * 1024, "\(size) bytes")
        let recorded = try RecordedMovie(url, width: 1280, height: 720)
        #expect(recorded.frames.count > 10 && recorded.skippedIndices != nil)
    }

    @Test func recordingRefusesAnExistingFile() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let url = Self.movieURL("precious.mov")
        let precious = Data("not a movie, and not to be lost".utf8)
        try precious.write(to: url)
        let events = RecordingEvents()
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        let error = try #require(try events.finishError(of: url))
        #expect(error.code == .fileAlreadyExists)
        #expect(error.recordingSuccessfullyFinished == false)
        #expect(events.events == [.finished(url)])
        #expect(try Data(contentsOf: url) == precious)
        #expect(!movie.isRecording)
    }

    @Test func aNewRecordingWhileRecordingLosesNoFrame() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: true, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let events = RecordingEvents()
        let first = Self.movieURL("first.mov"), second = Self.movieURL("second.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: first, recordingDelegate: events)
        #expect(events.wait(for: .started(first)))
        var seen = collector.frames.count
        #expect(collector.wait { frames, _ in frames.count >= seen + 45 })
        movie.startRecording(to: second, recordingDelegate: events)
        #expect(movie.outputFileURL == second)
        #expect(try events.finishError(of: first) == nil)
        seen = collector.frames.count
        #expect(collector.wait { frames, _ in frames.count >= seen + 45 })
        movie.stopRecording()
        #expect(try events.finishError(of: second) == nil)

        let a = try RecordedMovie(first, width: 640, height: 480), b = try RecordedMovie(second, width: 640, height: 480)
        let lastOfFirst = try #require(a.frames.last?.index), firstOfSecond = try #require(b.frames.first?.index)
        #expect(firstOfSecond == lastOfFirst + 1, "the first file ends at frame \(lastOfFirst), the second starts at \(firstOfSecond)")
        #expect(b.frames.first?.time == 0)
        #expect(b.codecs == ["h264", "aac"])
    }

    @Test func pausingLeavesNoGapInTheFile() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let events = RecordingEvents()
        let url = Self.movieURL("paused.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url)))
        for event in [RecordingEvents.Event.paused(url), .resumed(url)] {
            let seen = collector.frames.count
            #expect(collector.wait { frames, _ in frames.count >= seen + 20 })
            if case .paused = event { movie.pauseRecording() } else { movie.resumeRecording() }
            #expect(events.wait(for: event))
            #expect(movie.isRecordingPaused == (event == .paused(url)))
        }
        let seen = collector.frames.count
        #expect(collector.wait { frames, _ in frames.count >= seen + 20 })
        movie.stopRecording()
        #expect(try events.finishError(of: url) == nil)
        #expect(events.events == [.started(url), .paused(url), .resumed(url), .willFinish(url), .finished(url)])

        let recorded = try RecordedMovie(url, width: 640, height: 480)
        let times = recorded.frames.map(\.time)
        let indices = recorded.frames.compactMap(\.index)
        try #require(indices.count == times.count && times.count > 30)
        // Frames continue at the frame rate across the pause; their indices jump over it.
        let jumps = zip(indices, indices.dropFirst()).map { $1 - $0 }
        let timeSteps = zip(times, times.dropFirst()).map { $1 - $0 }
        let pauseJump = try #require(jumps.max())
        #expect(pauseJump >= 20, "indices jump by \(pauseJump) over the pause")
        let pauseAt = try #require(jumps.firstIndex(of: pauseJump))
        #expect(abs(timeSteps[pauseAt] - 1.0 / 30) < 1e-3, "the frame after the pause follows at \(timeSteps[pauseAt]) s")
    }

    @Test func aFullDiskStopsWithAPlayableFile() throws {
        // A 512 KiB file system of its own, so that filling it harms nothing.
        let mountPoint = Self.movieURL("tiny-disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        _ = try Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=512k", "openav-test", mountPoint.path])
        defer { _ = try? Fixtures.run("umount", [mountPoint.path]) }
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .hd1280x720, audio: true, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let video = try #require(movie.connection(with: .video))
        movie.setOutputSettings(Self.bulkySettings, for: video)
        let events = RecordingEvents()
        let url = mountPoint.appendingPathComponent("full.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        let error = try #require(try events.finishError(of: url))
        #expect(error.code == .diskFull)
        #expect(error.recordingSuccessfullyFinished == true)
        let recorded = try RecordedMovie(url, width: 1280, height: 720)
        #expect(recorded.frames.count > 5 && recorded.skippedIndices != nil)
        #expect(abs(try #require(recorded.duration) - movie.recordedDuration.seconds) <= 1.0 / 30 + 1e-3)
    }

    @Test func anUnpluggedCameraFinishesThePlayableFile() throws {
        try Self.withAddedCamera("unplugged-while-recording") { camera, device in
            let waiter = NotificationWaiter([AVCaptureDevice.wasDisconnectedNotification, AVCaptureSession.runtimeErrorNotification])
            let session = AVCaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            let movie = AVCaptureMovieFileOutput()
            session.addOutput(movie)
            let collector = CaptureFrameCollector()
            let frames = AVCaptureVideoDataOutput()
            frames.setSampleBufferDelegate(collector, queue: DispatchQueue(label: "frames"))
            session.addOutput(frames)
            let events = RecordingEvents()
            let url = Self.movieURL("unplugged.mov")
            session.startRunning()
            defer { session.stopRunning() }
            movie.startRecording(to: url, recordingDelegate: events)
            #expect(events.wait(for: .started(url)))
            #expect(collector.wait { frames, _ in frames.count >= 45 })
            camera.simulateDisconnect()
            let error = try #require(try events.finishError(of: url))
            #expect(error.code == .deviceWasDisconnected)
            #expect(error.recordingSuccessfullyFinished == true)
            #expect(waiter.wait(for: AVCaptureDevice.wasDisconnectedNotification, object: device) != nil)
            #expect(waiter.wait(for: AVCaptureSession.runtimeErrorNotification, object: session) != nil)
            let recorded = try RecordedMovie(url, width: 640, height: 480)
            #expect(recorded.codecs == ["h264", "aac"])
            #expect(recorded.frames.count >= 40 && recorded.skippedIndices == movie.droppedFrameCount)
            #expect(abs(try #require(recorded.duration) - movie.recordedDuration.seconds) <= 1.0 / 30 + 1e-3)
        }
    }

    @Test func aPhotoWhileRecordingIsOneOfTheRecordedFrames() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: true, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let photoOutput = AVCapturePhotoOutput()
        #expect(session.canAddOutput(photoOutput))
        session.addOutput(photoOutput)
        let events = RecordingEvents()
        let url = Self.movieURL("with-photo.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url)))
        var seen = collector.frames.count
        #expect(collector.wait { frames, _ in frames.count >= seen + 15 })
        let photo = PhotoCaptureRecorder()
        photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: photo)
        #expect(photo.waitUntilFinished())
        seen = collector.frames.count
        #expect(collector.wait { frames, _ in frames.count >= seen + 15 })
        movie.stopRecording()
        #expect(try events.finishError(of: url) == nil)

        let index = try Self.jpegFrameIndex(of: photo.photo)
        let recorded = try RecordedMovie(url, width: 640, height: 480)
        let indices = recorded.frames.compactMap(\.index)
        #expect(indices.contains(index) || movie.droppedFrameCount > 0,
                "the photo is frame \(index); the movie holds \(indices.first ?? -1)…\(indices.last ?? -1)")
        #expect((indices.first ?? .max) < index && index < (indices.last ?? .min))
    }

    @Test func hevcRecording() throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        movie.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: try #require(movie.connection(with: .video)))
        movie.maxRecordedDuration = CMTime(value: 1, timescale: 1)
        let events = RecordingEvents()
        let url = Self.movieURL("hevc.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(try events.finishError(of: url)?.code == .maximumDurationReached)
        let recorded = try RecordedMovie(url, width: 640, height: 480)
        #expect(recorded.codecs == ["hevc"])
        #expect(recorded.skippedIndices == movie.droppedFrameCount)
    }

    @Test func anEncoderThatFallsBehindDropsFramesAndKeepsMemoryFlat() throws {
        // 4K HEVC at 30 fps is more than x265 encodes on two cores: the bounded queue must drop.
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .hd4K3840x2160, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        movie.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: try #require(movie.connection(with: .video)))
        let events = RecordingEvents()
        let url = Self.movieURL("4k.mov")
        session.startRunning()
        defer { session.stopRunning() }
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(events.wait(for: .started(url), timeout: 20))
        // A second of frames at a time: first until x265 has taken 40 frames (its lookahead and
        // picture pool are full then: that memory is the encoder's own, not our queue's), then
        // three seconds more.
        func oneSecond() {
            let seen = collector.frames.count
            #expect(collector.wait(timeout: 10) { frames, _ in frames.count >= seen + 30 })
        }
        var seconds = 0
        while movie.recordedFrameCount < 40 && seconds < 60 {
            oneSecond()
            seconds += 1
        }
        let residentBefore = try Self.residentBytes(), offeredBefore = collector.frames.count
        for _ in 0..<3 { oneSecond() }
        let residentAfter = try Self.residentBytes(), offeredLate = collector.frames.count - offeredBefore
        movie.stopRecording()
        #expect(try events.finishError(of: url, timeout: 60) == nil)
        // The encoder fell far behind and frames were dropped...
        #expect(movie.droppedFrameCount >= 30, "\(movie.droppedFrameCount) frames dropped")
        // ...and memory did not grow with the frames offered in those three seconds: queued,
        // they would have taken a frame's bytes each; a quarter of that is allowed.
        let frameBytes = 3840 * 2160 * 3 / 2
        #expect(residentAfter - residentBefore < offeredLate * frameBytes / 4,
                "resident memory went from \(residentBefore >> 20) to \(residentAfter >> 20) MiB while \(offeredLate) frames were offered")
        let recorded = try RecordedMovie(url, width: 960, height: 540)
        #expect(recorded.frames.count == movie.recordedFrameCount)
        #expect(recorded.skippedIndices == movie.droppedFrameCount)
    }

    /// This process's resident memory, from /proc.
    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(statm.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "statm: \(statm)")
        try #require(pages > 0)
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
