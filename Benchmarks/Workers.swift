#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OpenAVFoundation

/// Our side of each workload, run in a child process (`openav-bench --worker NAME …`) so that
/// its wall time, CPU time and peak memory are measured exactly as the ffmpeg side's are.
/// Each prints one line of what it did, which the parent keeps in the log.
enum Workers {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func run(_ name: String, _ arguments: [String]) async throws {
        switch name {
        case "decode": try await decode(URL(fileURLWithPath: arguments[0]))
        case "encode":
            try await encode(raw: arguments[0], frames: Int(arguments[1])!, output: URL(fileURLWithPath: arguments[2]))
        case "thumbnails":
            try await thumbnails(URL(fileURLWithPath: arguments[0]), count: Int(arguments[1])!, directory: arguments[2])
        case "remux":
            try await remux(URL(fileURLWithPath: arguments[0]), start: Double(arguments[1])!, duration: Double(arguments[2])!,
                            output: URL(fileURLWithPath: arguments[3]))
        case "export":
            try await export(URL(fileURLWithPath: arguments[0]), preset: arguments[1], start: Double(arguments[2])!,
                             duration: Double(arguments[3])!, output: URL(fileURLWithPath: arguments[4]))
        case "crossfade":
            try await crossfade(URL(fileURLWithPath: arguments[0]), URL(fileURLWithPath: arguments[1]), seconds: Double(arguments[2])!,
                                output: URL(fileURLWithPath: arguments[3]))
        case "probe": try await probe(arguments.map { URL(fileURLWithPath: $0) })
        case "capture-settings": try captureSettings()
        case "capture": try capture(seconds: Double(arguments[0])!, output: URL(fileURLWithPath: arguments[1]))
        case "pattern-frames": try patternFrames(count: Int(arguments[0])!, output: URL(fileURLWithPath: arguments[1]))
        case "play": try play(URL(fileURLWithPath: arguments[0]))
        case "window": try playInWindow(URL(fileURLWithPath: arguments[0]))
        case "display-layer": try await displayLayer(URL(fileURLWithPath: arguments[0]))
        case "seek": try await seek(URL(fileURLWithPath: arguments[0]), times: arguments.dropFirst().compactMap(Double.init))
        case "mpv-seek": try mpvSeek(URL(fileURLWithPath: arguments[0]), times: arguments.dropFirst().compactMap(Double.init))
        case "audio-decode": try audioDecode(URL(fileURLWithPath: arguments[0]))
        case "resample": try resample(URL(fileURLWithPath: arguments[0]))
        case "aac-encode": try aacEncode(URL(fileURLWithPath: arguments[0]))
        case "engine-play": try enginePlay(URL(fileURLWithPath: arguments[0]))
        case "read-codes":
            try readCodes(frame: URL(fileURLWithPath: arguments[0]), width: Int(arguments[1])!, height: Int(arguments[2])!,
                          count: Int(arguments[3])!)
        case "scan": try scan(URL(fileURLWithPath: arguments[0]), seconds: Double(arguments[1])!)
        case "engine-mix": try engineMix(URL(fileURLWithPath: arguments[0]), URL(fileURLWithPath: arguments[1]))
        default: throw Failure("no worker \(name)")
        }
    }

    /// Workload 1: every frame to BGRA through `AVAssetReaderTrackOutput`.
    static func decode(_ url: URL) async throws {
        let asset = AVURLAsset(url: url)
        guard let track = try await asset.loadTracks(withMediaType: .video).first else { throw Failure("no video track") }
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
        ])
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? Failure("startReading failed") }
        var frames = 0
        var last = CMTime.invalid
        while let sample = output.copyNextSampleBuffer() {
            guard CMSampleBufferGetImageBuffer(sample) != nil else { throw Failure("a sample without pixels") }
            frames += 1
            last = sample.presentationTimeStamp
        }
        guard reader.status == .completed else { throw reader.error ?? Failure("reading ended with status \(reader.status)") }
        print("decoded \(frames) BGRA frames, last at \(last.seconds) s")
    }

    /// Workload 2: raw BGRA frames read from a file into the adaptor's pool buffers, encoded to
    /// H.264 in MP4 with the writer's defaults.
    static func encode(raw: String, frames: Int, output: URL) async throws {
        let (width, height) = (1920, 1080)
        let writer = try AVAssetWriter(outputURL: output, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [
            AVVideoCodecKey: AVVideoCodecType.h264,
            AVVideoWidthKey: width,
            AVVideoHeightKey: height,
            AVVideoCompressionPropertiesKey: [AVVideoExpectedSourceFrameRateKey: 30],
        ])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
            kCVPixelBufferWidthKey as String: width,
            kCVPixelBufferHeightKey as String: height,
        ])
        writer.add(input)
        guard writer.startWriting() else { throw writer.error ?? Failure("startWriting failed") }
        writer.startSession(atSourceTime: .zero)
        guard let pool = adaptor.pixelBufferPool else { throw Failure("no pixel buffer pool") }
        let fd = open(raw, O_RDONLY)
        guard fd >= 0 else { throw Failure("cannot open \(raw)") }
        defer { close(fd) }
        let rowBytes = width * 4
        for index in 0..<frames {
            var made: CVPixelBuffer?
            CVPixelBufferPoolCreatePixelBuffer(nil, pool, &made)
            guard let buffer = made else { throw Failure("the pool gave no buffer") }
            CVPixelBufferLockBaseAddress(buffer, [])
            let base = CVPixelBufferGetBaseAddress(buffer)!
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            if stride == rowBytes {
                try readFully(fd, base, rowBytes * height)
            } else {
                for row in 0..<height { try readFully(fd, base + row * stride, rowBytes) }
            }
            CVPixelBufferUnlockBaseAddress(buffer, [])
            while !input.isReadyForMoreMediaData { usleep(100) }
            guard adaptor.append(buffer, withPresentationTime: CMTime(value: Int64(index), timescale: 30)) else {
                throw writer.error ?? Failure("append failed")
            }
        }
        input.markAsFinished()
        await writer.finishWriting()
        guard writer.status == .completed else { throw writer.error ?? Failure("writing ended with status \(writer.status)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        print("encoded \(frames) frames into \(size) bytes")
    }

    private static func readFully(_ fd: Int32, _ target: UnsafeMutableRawPointer, _ count: Int) throws {
        var done = 0
        while done < count {
            let got = read(fd, target + done, count - done)
            guard got > 0 else { throw Failure("the raw frame file ended early") }
            done += got
        }
    }

    /// Workload 3: `count` thumbnails evenly spread, default tolerances, each written as PNG
    /// through `CGImageDestination` (as ffmpeg writes PNG).
    static func thumbnails(_ url: URL, count: Int, directory: String) async throws {
        let asset = AVURLAsset(url: url)
        let duration = try await asset.load(.duration)
        let generator = AVAssetImageGenerator(asset: asset)
        var actual: [String] = []
        for (index, seconds) in thumbnailTimes(duration: duration.seconds, count: count).enumerated() {
            let (image, time) = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 600))
            let path = "\(directory)/ours-\(index).png"
            guard let destination = CGImageDestinationCreateWithURL(URL(fileURLWithPath: path) as CFURL, "public.png" as CFString, 1, nil)
            else { throw Failure("no PNG destination") }
            CGImageDestinationAddImage(destination, image, nil)
            guard CGImageDestinationFinalize(destination) else { throw Failure("cannot write \(path)") }
            actual.append(String(format: "%.2f", time.seconds))
        }
        print("\(count) thumbnails at \(actual.joined(separator: " "))")
    }

    /// The times of the thumbnails: the middles of `count` equal parts of the duration.
    static func thumbnailTimes(duration: Double, count: Int) -> [Double] {
        (0..<count).map { duration * (Double($0) + 0.5) / Double(count) }
    }

    /// Workload 4: the samples of every track in a time range, as stored, into a new MP4.
    static func remux(_ url: URL, start: Double, duration: Double, output: URL) async throws {
        let asset = AVURLAsset(url: url)
        let tracks = try await asset.load(.tracks)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600),
                                       duration: CMTime(seconds: duration, preferredTimescale: 600))
        let writer = try AVAssetWriter(outputURL: output, fileType: .mp4)
        var pairs: [(output: AVAssetReaderTrackOutput, input: AVAssetWriterInput)] = []
        for track in tracks {
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
            output.alwaysCopiesSampleData = false
            reader.add(output)
            let hint = try await track.load(.formatDescriptions).first
            let input = AVAssetWriterInput(mediaType: track.mediaType, outputSettings: nil, sourceFormatHint: hint)
            writer.add(input)
            pairs.append((output, input))
        }
        guard reader.startReading() else { throw reader.error ?? Failure("startReading failed") }
        guard writer.startWriting() else { throw writer.error ?? Failure("startWriting failed") }
        // The first sample of each track; the session starts at the earliest.
        var heads = pairs.map { $0.output.copyNextSampleBuffer() }
        let firstTimes = heads.compactMap { $0?.presentationTimeStamp }.filter(\.isNumeric)
        writer.startSession(atSourceTime: firstTimes.min() ?? .zero)
        var samples = 0
        // Interleave by time, as a player-friendly file needs: always the track that is behind.
        while true {
            let next = heads.indices.filter { heads[$0] != nil }
                .min { heads[$0]!.decodeTimeStampOrPresentation < heads[$1]!.decodeTimeStampOrPresentation }
            guard let index = next else { break }
            guard pairs[index].input.append(heads[index]!) else { throw writer.error ?? Failure("append failed") }
            samples += 1
            heads[index] = pairs[index].output.copyNextSampleBuffer()
            if heads[index] == nil { pairs[index].input.markAsFinished() }
        }
        guard reader.status == .completed else { throw reader.error ?? Failure("reading ended with status \(reader.status)") }
        await writer.finishWriting()
        guard writer.status == .completed else { throw writer.error ?? Failure("writing ended with status \(writer.status)") }
        print("remuxed \(samples) samples of \(pairs.count) tracks from \(firstTimes.min()?.seconds ?? 0) s")
    }

    /// The export workloads: `AVAssetExportSession` with a preset over a time range (a
    /// negative duration: the whole asset) into an MP4.
    static func export(_ url: URL, preset: String, start: Double, duration: Double, output: URL) async throws {
        guard let session = AVAssetExportSession(asset: AVURLAsset(url: url), presetName: preset) else { throw Failure("no preset \(preset)") }
        if duration >= 0 {
            session.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600),
                                            duration: CMTime(seconds: duration, preferredTimescale: 600))
        }
        try await session.export(to: output, as: .mp4)
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        print("exported \(preset) into \(size) bytes")
    }

    /// The crossfade workload, as an app writes it: two clips on two tracks of an
    /// `AVMutableComposition` overlapping by `seconds`, the first fading out over the second
    /// (an opacity ramp) while their sounds cross (volume ramps), exported with the 1920x1080
    /// preset.
    static func crossfade(_ a: URL, _ b: URL, seconds: Double, output: URL) async throws {
        let (first, second) = (AVURLAsset(url: a), AVURLAsset(url: b))
        let (firstDuration, secondDuration) = (try await first.load(.duration), try await second.load(.duration))
        let fade = CMTime(seconds: seconds, preferredTimescale: 600)
        let composition = AVMutableComposition()
        var tracks: [AVMediaType: [AVMutableCompositionTrack]] = [:]
        for (asset, start, duration) in [(first, CMTime.zero, firstDuration), (second, firstDuration - fade, secondDuration)] {
            for type in [AVMediaType.video, .audio] {
                guard let source = try await asset.loadTracks(withMediaType: type).first,
                      let track = composition.addMutableTrack(withMediaType: type, preferredTrackID: kCMPersistentTrackID_Invalid) else {
                    throw Failure("the clips need video and sound")
                }
                try track.insertTimeRange(CMTimeRange(start: .zero, duration: duration), of: source, at: start)
                tracks[type, default: []].append(track)
            }
        }
        let (videoA, videoB) = (tracks[.video]![0], tracks[.video]![1])
        let crossing = CMTimeRange(start: firstDuration - fade, duration: fade)
        let fadingOut = AVMutableVideoCompositionLayerInstruction(assetTrack: videoA)
        fadingOut.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: crossing)
        let spans: [(CMTimeRange, [AVVideoCompositionLayerInstruction])] = [
            (CMTimeRange(start: .zero, end: crossing.start), [AVMutableVideoCompositionLayerInstruction(assetTrack: videoA)]),
            (crossing, [fadingOut, AVMutableVideoCompositionLayerInstruction(assetTrack: videoB)]),
            (CMTimeRange(start: crossing.end, end: composition.duration), [AVMutableVideoCompositionLayerInstruction(assetTrack: videoB)]),
        ]
        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = CGSize(width: 1920, height: 1080)
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        videoComposition.instructions = spans.map { range, layers in
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = range
            instruction.layerInstructions = layers
            return instruction
        }
        let (soundA, soundB) = (AVMutableAudioMixInputParameters(track: tracks[.audio]![0]), AVMutableAudioMixInputParameters(track: tracks[.audio]![1]))
        soundA.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: crossing)
        soundB.setVolumeRamp(fromStartVolume: 0, toEndVolume: 1, timeRange: crossing)
        let audioMix = AVMutableAudioMix()
        audioMix.inputParameters = [soundA, soundB]
        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset1920x1080) else { throw Failure("no preset") }
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        try await session.export(to: output, as: .mp4)
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        print("crossfaded into \(size) bytes")
    }

    /// Workload 5: duration and tracks of each file.
    static func probe(_ urls: [URL]) async throws {
        var trackCount = 0
        var total = 0.0
        for url in urls {
            let asset = AVURLAsset(url: url)
            let (duration, tracks) = try await asset.load(.duration, .tracks)
            trackCount += tracks.count
            total += duration.seconds
        }
        print("probed \(urls.count) files: \(trackCount) tracks, \(String(format: "%.2f", total)) s in all")
    }
}

extension Workers {
    /// The capture workload's session: the virtual Test Pattern Camera at 1920x1080 '420v'
    /// 30 fps and the virtual Test Tone Microphone, into a movie file output and a video data
    /// output whose delegate is `probe`.
    static func captureSession(probe: LatencyProbe) throws -> (AVCaptureSession, AVCaptureMovieFileOutput) {
        // The virtual devices only, whatever else is plugged in.
        setenv("OPENAV_CAPTURE_DEVICES", "virtual", 1)
        guard let camera = AVCaptureDevice.default(for: .video), let microphone = AVCaptureDevice.default(for: .audio) else {
            throw Failure("no virtual camera or microphone")
        }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        try useCaptureFormat(of: camera)
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        let frames = AVCaptureVideoDataOutput()
        frames.setSampleBufferDelegate(probe, queue: DispatchQueue(label: "openav-bench.frames"))
        session.addOutput(frames)
        session.commitConfiguration()
        return (session, movie)
    }

    /// Sets the camera to the capture workload's format: 1920x1080 '420v' at 30 fps.
    static func useCaptureFormat(of camera: AVCaptureDevice) throws {
        guard let format = camera.formats.first(where: { format in
            let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
            return size.width == 1920 && size.height == 1080
                && CMFormatDescriptionGetMediaSubType(format.formatDescription) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        }) else { throw Failure("the camera has no 1920x1080 '420v' format") }
        try camera.lockForConfiguration()
        camera.activeFormat = format
        camera.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
        camera.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
        camera.unlockForConfiguration()
    }

    /// The capture workload's picture for the peers: `count` consecutive frames of the Test
    /// Pattern Camera in the workload's format, as the camera delivers them ('420v' planes,
    /// NV12), appended to one raw file, so that ffmpeg and GStreamer encode the very picture our
    /// side encodes.
    static func patternFrames(count: Int, output: URL) throws {
        setenv("OPENAV_CAPTURE_DEVICES", "virtual", 1)
        guard let camera = AVCaptureDevice.default(for: .video) else { throw Failure("no virtual camera") }
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        try useCaptureFormat(of: camera)
        let frames = AVCaptureVideoDataOutput()
        frames.alwaysDiscardsLateVideoFrames = false
        let writer = try RawFrameWriter(output, count: count)
        frames.setSampleBufferDelegate(writer, queue: DispatchQueue(label: "openav-bench.pattern"))
        session.addOutput(frames)
        session.commitConfiguration()
        session.startRunning()
        let written = writer.waitUntilWritten(timeout: Double(count) / 30 + 30)
        session.stopRunning()
        guard written else { throw Failure("the camera gave fewer than \(count) frames") }
        print("wrote \(count) frames of the test pattern to \(output.path)")
    }

    /// What the movie file output encodes with, as `key=value` lines the parent reads to give
    /// the peers the same settings: `outputSettings(for:)` of the video and audio connections.
    static func captureSettings() throws {
        let (session, movie) = try captureSession(probe: LatencyProbe())
        defer { withExtendedLifetime(session) {} }
        guard let video = movie.connection(with: .video), let audio = movie.connection(with: .audio) else {
            throw Failure("the movie file output has no video or audio connection")
        }
        let videoSettings = movie.outputSettings(for: video)
        let compression = videoSettings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        let audioSettings = movie.outputSettings(for: audio)
        func number(_ value: Any?) -> String { value.map { "\($0)" } ?? "" }
        print("codec=\(number(videoSettings[AVVideoCodecKey]))")
        print("width=\(number(videoSettings[AVVideoWidthKey]))")
        print("height=\(number(videoSettings[AVVideoHeightKey]))")
        print("bitrate=\(number(compression[AVVideoAverageBitRateKey]))")
        print("keyframe-seconds=\(number(compression[AVVideoMaxKeyFrameIntervalDurationKey]))")
        print("profile=\(number(compression[AVVideoProfileLevelKey]))")
        print("audio-rate=\(number(audioSettings[AVSampleRateKey]))")
        print("audio-channels=\(number(audioSettings[AVNumberOfChannelsKey]))")
        print("audio-bitrate=\(number(audioSettings[AVEncoderBitRateKey]))")
    }

    /// Workload 6: `seconds` of the capture session into a QuickTime movie
    /// (`maxRecordedDuration`), while the video data output's delegate measures each frame's
    /// capture-to-delegate latency. Prints one `metrics:` line of `key=value` pairs.
    static func capture(seconds: Double, output: URL) throws {
        let probe = LatencyProbe()
        let (session, movie) = try captureSession(probe: probe)
        movie.maxRecordedDuration = CMTime(seconds: seconds, preferredTimescale: 600)
        let recording = RecordingWaiter()
        session.startRunning()
        probe.measuring = true
        movie.startRecording(to: output, recordingDelegate: recording)
        let error = recording.waitUntilFinished(timeout: seconds + 60)
        probe.measuring = false
        session.stopRunning()
        guard recording.finished else { throw Failure("the recording did not finish") }
        if let error = error as? AVError, error.code != .maximumDurationReached {
            throw Failure("the recording failed: \(error)")
        }
        let latencies = probe.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int((p * Double(latencies.count)).rounded(.up)) - 1)]
        }
        print(String(format: "metrics: recorded-seconds=%.3f recorded-frames=%d movie-dropped=%d data-output-frames=%d "
                     + "data-output-dropped=%d latency-p50-ms=%.3f latency-p99-ms=%.3f latency-max-ms=%.3f",
                     movie.recordedDuration.seconds, movie.recordedFrameCount, movie.droppedFrameCount,
                     latencies.count, probe.dropped, percentile(0.5), percentile(0.99), latencies.last ?? .nan))
    }
}

/// The video data output's delegate in the capture workload: for every frame delivered while
/// measuring, the host clock at the callback minus the frame's presentation time (both on the
/// host time clock, `CLOCK_MONOTONIC`), and the frames reported dropped.
final class LatencyProbe: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var measuringStorage = false
    private var latenciesStorage: [Double] = []
    private var droppedStorage = 0

    /// Whether frames count now (from the start of the recording to its end).
    var measuring: Bool {
        get { lock.withLock { measuringStorage } }
        set { lock.withLock { measuringStorage = newValue } }
    }
    /// Capture-to-delegate latencies, in milliseconds.
    var latencies: [Double] { lock.withLock { latenciesStorage } }
    /// Frames reported through `captureOutput(_:didDrop:from:)`.
    var dropped: Int { lock.withLock { droppedStorage } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let now = CMClock.hostTimeClock.time.seconds
        let latency = (now - sampleBuffer.presentationTimeStamp.seconds) * 1000
        lock.withLock { if measuringStorage { latenciesStorage.append(latency) } }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { if measuringStorage { droppedStorage += 1 } }
    }
}

/// The recording delegate of the capture workload: waits for the file to be finished.
final class RecordingWaiter: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var finishedStorage = false
    private var errorStorage: (any Error)?

    /// Whether the recording finished.
    var finished: Bool { condition.withLock { finishedStorage } }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
                    error: (any Error)?) {
        condition.withLock {
            finishedStorage = true
            errorStorage = error
            condition.broadcast()
        }
    }

    /// Waits for the recording to finish (at most `timeout` seconds); its error, if any.
    func waitUntilFinished(timeout: Double) -> (any Error)? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !finishedStorage, condition.wait(until: deadline) {}
        return errorStorage
    }
}

extension CMSampleBuffer {
    /// The decode time, or the presentation time when there is none (for interleaving).
    var decodeTimeStampOrPresentation: CMTime {
        let decode = decodeTimeStamp
        return decode.isNumeric ? decode : presentationTimeStamp
    }
}

/// Writes the first `count` frames delivered (NV12 planes, rows packed) to one raw file.
final class RawFrameWriter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private let file: FileHandle
    private let count: Int
    private var written = 0

    init(_ url: URL, count: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw Workers.Failure("cannot create \(url.path)")
        }
        file = try FileHandle(forWritingTo: url)
        self.count = count
    }

    /// Waits until `count` frames are written; whether they were within `timeout` seconds.
    func waitUntilWritten(timeout: TimeInterval) -> Bool {
        condition.withLock {
            let deadline = Date().addingTimeInterval(timeout)
            while written < count, condition.wait(until: deadline) {}
            return written >= count
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard condition.withLock({ written < count }), let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
        for plane in 0..<CVPixelBufferGetPlaneCount(pixels) {
            guard let base = CVPixelBufferGetBaseAddressOfPlane(pixels, plane) else { continue }
            let stride = CVPixelBufferGetBytesPerRowOfPlane(pixels, plane)
            let rowBytes = CVPixelBufferGetWidthOfPlane(pixels, plane) * (plane == 0 ? 1 : 2)
            for row in 0..<CVPixelBufferGetHeightOfPlane(pixels, plane) {
                file.write(Data(bytes: base + row * stride, count: rowBytes))
            }
        }
        condition.withLock {
            written += 1
            if written == count { try? file.close() }
            condition.broadcast()
        }
    }
}
