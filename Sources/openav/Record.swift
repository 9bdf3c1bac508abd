import ArgumentParser
import Dispatch
import Foundation
import OpenAVFoundation

/// `openav record OUTPUT`: records a movie from a camera (or, with `--screen`, an X11 screen)
/// and a microphone with `AVCaptureSession` and `AVCaptureMovieFileOutput`, as the guide's
/// "Saving to a Movie File" does, until Ctrl-C or `--duration`.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a QuickTime movie from a camera or a screen, and a microphone.",
        discussion: """
            Records from the default devices (the built-in virtual ones where there is no hardware) \
            until Ctrl-C or --duration, showing elapsed time, frames, drops, the audio level and the \
            file size. --screen records an X11 screen instead of a camera, with sound only when \
            --audio names a microphone. --preview shows the picture being recorded in a window. The file is written in fragments, so even a killed recording leaves a playable \
            file up to its last fragment. Existing files are never overwritten.
            """
    )

    @Argument(help: "The movie to write (QuickTime).")
    var output: String

    @OptionGroup var camera: VideoCaptureOptions

    @OptionGroup var screen: ScreenCaptureOptions

    @Option(help: "The microphone: its unique ID or name, as `openav devices` lists them, or a sound file, which a File Microphone plays (default: the first microphone, video only when there is none, none with --screen; 'none' for no audio).")
    var audio: String?

    @Option(help: "Video codec: h264, hevc, or copy (store a camera's H.264 frames as they come, without re-encoding; the default for a camera format that is H.264, 'avc1' in `openav devices`).")
    var codec: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Seconds of media in each movie fragment (0: a plain movie, unreadable if interrupted).")
    var fragment: Double = 10

    @Flag(help: "Show what is recorded in a window while recording (the window may drop pictures; the recording does not).")
    var preview = false

    @Option(help: "Also stream what is recorded as HTTP Live Streaming into this folder: init.mp4, segmentN.m4s and index.m3u8, a playlist that grows with each segment (serve the folder over HTTP to watch it live).")
    var hls: String?

    @Option(help: "Seconds of media in each HLS segment.")
    var hlsSegment: Double = 2

    func validate() throws {
        if let codec, !["h264", "hevc", "copy"].contains(codec) { throw ValidationError("unknown --codec \(codec)") }
        if codec == "copy" && screen.screen != nil { throw ValidationError("--codec copy needs a camera that sends H.264, not a screen") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        guard fragment >= 0 else { throw ValidationError("--fragment cannot be negative") }
        guard hlsSegment > 0 else { throw ValidationError("--hls-segment must be positive") }
        guard screen.screen == nil || (camera.video == nil && camera.preset == nil && camera.format == nil) else {
            throw ValidationError("--screen records a screen instead of a camera: leave out --video, --preset and --format")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: output)
        let session = AVCaptureSession()
        var storesCameraFrames = false
        session.beginConfiguration()
        if screen.screen != nil {
            try screen.addScreen(to: session)
        } else if camera.video != "none" {
            let device = try camera.addCamera(to: session, preferringH264: codec == "copy")
            let sendsH264 = CMFormatDescriptionGetMediaSubType(device.activeFormat.formatDescription) == kCMVideoCodecType_H264
            if codec == "copy" && !sendsH264 {
                throw CommandFailure("--codec copy: \(device.localizedName)'s format is not H.264; pick an 'avc1' format (`openav devices`) with --format")
            }
            storesCameraFrames = codec == "copy" || (codec == nil && sendsH264)
        }
        if let microphone = try microphone(hasVideo: !session.inputs.isEmpty) {
            let input: AVCaptureDeviceInput
            do {
                input = try AVCaptureDeviceInput(device: microphone)
            } catch let error as AVError {
                throw CommandFailure("cannot use \(microphone.localizedName): \(error.failureText)")
            }
            guard session.canAddInput(input) else { throw CommandFailure("cannot use \(microphone.localizedName)") }
            session.addInput(input)
        }
        session.commitConfiguration()
        guard !session.inputs.isEmpty else { throw CommandFailure("nothing to record: --video none and --audio none") }
        let movie = AVCaptureMovieFileOutput()
        guard session.canAddOutput(movie) else { throw CommandFailure("cannot add a movie output to the session") }
        session.addOutput(movie)
        if let video = movie.connection(with: .video) {
            // An empty dictionary: the camera's H.264 frames go into the file as they come.
            movie.setOutputSettings(storesCameraFrames ? [:] : [AVVideoCodecKey: codec == "hevc" ? AVVideoCodecType.hevc : .h264],
                                    for: video)
        }
        movie.movieFragmentInterval = fragment > 0 ? CMTime(seconds: fragment, preferredTimescale: 1000) : .invalid
        if let duration { movie.maxRecordedDuration = CMTime(seconds: duration, preferredTimescale: 1000) }
        let stream = try hls.map { folder in
            let recorder = try HLSRecorder(folder: URL(fileURLWithPath: folder), segmentSeconds: hlsSegment,
                                           maxDuration: duration.map { CMTime(seconds: $0, preferredTimescale: 1000) })
            session.beginConfiguration()
            defer { session.commitConfiguration() }
            let camera = session.inputs.compactMap { ($0 as? AVCaptureDeviceInput)?.device }.first { $0.hasMediaType(.video) }
            let frameRate = camera.map { 1 / $0.activeVideoMinFrameDuration.seconds }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 30
            try recorder.attach(to: session, frameRate: frameRate)
            return recorder
        }

        var window: AVDisplayWindow?
        if preview && session.inputs.contains(where: { $0.ports.contains { $0.mediaType == .video } }) {
            do {
                window = try Preview.window(showing: session, title: "openav record: \(output)")
            } catch let error as AVError {
                FileHandle.standardError.write(Data("No preview: \(error.failureText)\n".utf8))
            }
        }
        defer { window?.close() }

        let watcher = RecordingWatcher()
        let startError = StartErrorWatcher(session)
        session.startRunning()
        guard session.isRunning else {
            throw CommandFailure("the capture session did not start: \(startError.error?.failureText ?? "unknown error")")
        }
        defer { session.stopRunning() }

        // Ctrl-C (and a polite kill) stop the recording; the file is finished before exiting.
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { movie.stopRecording() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        movie.startRecording(to: url, recordingDelegate: watcher)
        let status = StatusLine(movie: movie)
        while !watcher.waitForFinish(timeout: 0.25) { status.show() }
        status.clear()

        stream?.finish()
        let error = watcher.finishError
        if let failure = stream?.failure { throw CommandFailure("the HLS stream in \(hls ?? ""): \(failure)") }
        if let error, error.recordingSuccessfullyFinished != true {
            throw CommandFailure("the recording to \(output) failed: \(error.failureText)")
        }
        print("Recorded \(String(format: "%.2f", movie.recordedDuration.seconds)) s to \(output): "
            + "\(movie.recordedFrameCount) frames, \(movie.droppedFrameCount) dropped, \(StatusLine.size(movie.recordedFileSize))")
        if let stream { print(stream.summary) }
        if let error, error.code != .maximumDurationReached {
            throw CommandFailure("the recording stopped early (the file is complete): \(error.failureText)")
        }
    }

    /// The microphone chosen by `--audio`, or the default microphone (none with `--screen`).
    private func microphone(hasVideo: Bool) throws -> AVCaptureDevice? {
        if audio == nil && screen.screen != nil { return nil }
        return try DeviceLookup.microphone(audio, hasVideo: hasVideo)
    }
}

/// Waits for the end of a recording.
final class RecordingWatcher: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = false
    private var error: AVError?

    /// Why the recording finished (nil: asked to stop).
    var finishError: AVError? { condition.withLock { error } }

    /// Waits until the recording finished or `timeout` seconds passed; whether it finished.
    func waitForFinish(timeout: TimeInterval) -> Bool {
        condition.withLock {
            if !finished { _ = condition.wait(until: Date().addingTimeInterval(timeout)) }
            return finished
        }
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL,
                    from connections: [AVCaptureConnection], error: (any Error)?) {
        condition.withLock {
            finished = true
            self.error = error as? AVError
            condition.broadcast()
        }
    }
}

/// The live status line on a terminal: elapsed time, frames, drops, an audio level meter and
/// the file size. Nothing is shown when standard error is not a terminal.
struct StatusLine {
    let movie: AVCaptureMovieFileOutput
    private let isTerminal = isatty(STDERR_FILENO) != 0

    /// Rewrites the line.
    func show() {
        guard isTerminal else { return }
        let seconds = movie.recordedDuration.seconds
        let level = movie.connection(with: .audio)?.audioChannels.first?.averagePowerLevel
        let meter = level.map { " audio \(Self.meter($0))" } ?? ""
        let line = String(format: "%02d:%05.2f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
            + "  frames \(movie.recordedFrameCount)  dropped \(movie.droppedFrameCount)\(meter)  \(Self.size(movie.recordedFileSize))"
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
    }

    /// Ends the line.
    func clear() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// A 20-step bar for -60…0 dB, with the level.
    static func meter(_ decibels: Float) -> String {
        let filled = Int(((max(-60, min(0, decibels)) + 60) / 3).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "] "
            + String(format: "%4.0f dB", max(-99, decibels))
    }

    /// A byte count for people.
    static func size(_ bytes: Int64) -> String {
        bytes < 1_000_000 ? String(format: "%.0f kB", Double(bytes) / 1000) : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
