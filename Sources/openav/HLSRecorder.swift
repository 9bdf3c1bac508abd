import Dispatch
import Foundation
import OpenAVFoundation

/// `openav record --hls DIR`: an HTTP Live Stream of what a capture session records, beside
/// the movie: data outputs on the same session feed an `AVAssetWriter(contentType:)` whose
/// segments go to DIR as `init.mp4` and `segmentN.m4s`, listed in `index.m3u8`, which grows
/// with each segment (an EVENT playlist, ended when the recording ends), so that a player can
/// play it while it grows.
final class HLSRecorder: NSObject, AVAssetWriterDelegate, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    /// The playlist's name in the folder.
    static let playlistName = "index.m3u8"

    private let folder: URL
    private let segmentSeconds: Double
    /// How much is streamed (the recording's `--duration`), or nil: until the end.
    private let maxDuration: CMTime?
    private let writer: AVAssetWriter
    private let videoOutput = AVCaptureVideoDataOutput()
    private let audioOutput = AVCaptureAudioDataOutput()
    private let queue = DispatchQueue(label: "openav.record.hls")
    private var videoInput: AVAssetWriterInput?
    private var audioInput: AVAssetWriterInput?
    private var started = false
    private var stopped = false
    private var startTime = CMTime.invalid
    /// The segments written so far: file name and duration.
    private var segments: [(name: String, duration: Double)] = []
    /// The first failure, reported when the recording ends.
    private(set) var failure: String?
    /// Pictures of the session the stream missed: dropped by its data output when its
    /// encoder fell behind, or refused by a writer input not ready for more. Read after
    /// `finish()`.
    private(set) var droppedPictures = 0

    /// Prepares a stream into `folder` (made here; one that holds a playlist already is
    /// refused, as nothing is overwritten) of segments of about `segmentSeconds`, at most
    /// `maxDuration` long.
    init(folder: URL, segmentSeconds: Double, maxDuration: CMTime?) throws {
        self.folder = folder
        self.segmentSeconds = segmentSeconds
        self.maxDuration = maxDuration
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.playlistName).path) {
            throw CommandFailure("\(folder.path) holds a stream already (\(Self.playlistName)); choose another folder")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot make \(folder.path): \(error.localizedDescription)")
        }
        writer = AVAssetWriter(contentType: .mpeg4Movie)
        super.init()
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(seconds: segmentSeconds, preferredTimescale: 1000)
        writer.delegate = self
    }

    /// Adds the data outputs to `session` (inside its configuration), for its video and audio.
    func attach(to session: AVCaptureSession, frameRate: Double) throws {
        for output in [videoOutput as AVCaptureOutput, audioOutput] where session.canAddOutput(output) {
            session.addOutput(output)
        }
        if videoOutput.connection(with: .video) != nil,
           var settings = videoOutput.recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .mp4) {
            // A key frame at every segment boundary: segments are cut at key frames.
            settings[AVVideoCompressionPropertiesKey] = [AVVideoMaxKeyFrameIntervalKey: max(1, Int((frameRate * segmentSeconds).rounded()))]
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
            input.expectsMediaDataInRealTime = true
            writer.add(input)
            videoInput = input
            // The stream holds every picture the movie does: none is dropped for being late.
            videoOutput.alwaysDiscardsLateVideoFrames = false
            videoOutput.setSampleBufferDelegate(self, queue: queue)
        } else {
            session.removeOutput(videoOutput)
        }
        if audioOutput.connection(with: .audio) != nil,
           let settings = audioOutput.recommendedAudioSettingsForAssetWriter(writingTo: .mp4) {
            let input = AVAssetWriterInput(mediaType: .audio, outputSettings: settings)
            input.expectsMediaDataInRealTime = true
            writer.add(input)
            audioInput = input
            audioOutput.setSampleBufferDelegate(self, queue: queue)
        } else {
            session.removeOutput(audioOutput)
        }
        guard videoInput != nil || audioInput != nil else { throw CommandFailure("--hls: nothing to stream") }
    }

    /// Both outputs' samples, on one queue: the stream starts at the first picture (or sound,
    /// without video); sound from before it is left out.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard !stopped else { return }
        let isVideo = output === videoOutput
        let time = sampleBuffer.presentationTimeStamp
        if !started {
            guard isVideo || videoInput == nil else { return }
            writer.initialSegmentStartTime = time
            guard writer.startWriting() else {
                stopped = true
                return fail("the stream cannot start: \(writer.error.map(String.init(describing:)) ?? "")")
            }
            writer.startSession(atSourceTime: time)
            startTime = time
            started = true
        }
        guard time >= startTime, maxDuration.map({ time < startTime + $0 }) ?? true,
              let input = isVideo ? videoInput : audioInput else { return }
        guard input.isReadyForMoreMediaData else {
            if isVideo { droppedPictures += 1 }
            return
        }
        if !input.append(sampleBuffer) { fail("writing the stream failed: \(writer.error.map(String.init(describing:)) ?? "")") }
    }

    /// A picture the video output dropped (its queue full while the stream's encoder was
    /// behind): counted once the stream has started, within its duration.
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let time = sampleBuffer.presentationTimeStamp
        guard output === videoOutput, started, !stopped, time >= startTime, maxDuration.map({ time < startTime + $0 }) ?? true else { return }
        droppedPictures += 1
    }

    /// The stream's summary line: its segments and the pictures it missed.
    var summary: String {
        queue.sync { "Streamed \(segments.count) segments to \(folder.path): \(droppedPictures) pictures dropped" }
    }

    /// Ends the stream: the last segment is written and the playlist ended.
    func finish() {
        let wasStarted: Bool = queue.sync {
            stopped = true
            return started
        }
        guard wasStarted else { return }
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        done.wait()
        queue.sync { writePlaylist(ended: true) }
    }

    /// A segment from the writer: saved, then listed.
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                     segmentReport: AVAssetSegmentReport?) {
        queue.async { [self] in
            let name = segmentType == .initialization ? "init.mp4" : "segment\(segments.count).m4s"
            do {
                try segmentData.write(to: folder.appendingPathComponent(name), options: .withoutOverwriting)
            } catch {
                return fail("cannot write \(name): \(error.localizedDescription)")
            }
            guard segmentType == .separable else { return }
            let tracks = segmentReport?.trackReports ?? []
            let timing = tracks.first { $0.mediaType == .video } ?? tracks.first
            let duration = timing?.duration.seconds ?? segmentSeconds
            segments.append((name, duration))
            writePlaylist(ended: false)
        }
    }

    /// Rewrites the playlist (replaced whole, so that a reader never sees half of it).
    private func writePlaylist(ended: Bool) {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(Int((segments.map(\.duration).max() ?? segmentSeconds).rounded(.up)))\n"
        text += "#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for segment in segments { text += String(format: "#EXTINF:%.6f,\n", segment.duration) + segment.name + "\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        do {
            try text.write(to: folder.appendingPathComponent(Self.playlistName), atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write \(Self.playlistName): \(error.localizedDescription)")
        }
    }

    private func fail(_ message: String) {
        if failure == nil { failure = message }
    }
}
