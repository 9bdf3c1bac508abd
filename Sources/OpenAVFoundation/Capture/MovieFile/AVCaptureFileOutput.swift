import Foundation
import CaptureDevices
import HostSystem
import OpenCoreMedia

/// The abstract superclass of capture outputs that record to files, such as
/// `AVCaptureMovieFileOutput`.
///
/// A recording runs from `startRecording(to:recordingDelegate:)` until `stopRecording()`, a
/// limit (`maxRecordedDuration`, `maxRecordedFileSize`, `minFreeDiskSpaceLimit`), the
/// session stopping, or its device going away; the delegate then hears
/// `fileOutput(_:didFinishRecordingTo:from:error:)`. Starting a recording while one is under
/// way switches files at the next video frame without losing one (as on macOS). Samples are
/// encoded off the devices' threads behind a bounded queue (see `droppedFrameCount`).
///
/// Differs from Apple: the macOS `delegate` (`AVCaptureFileOutputDelegate`, sample-accurate
/// starts) is not available.
public class AVCaptureFileOutput: AVCaptureOutput, @unchecked Sendable {
    /// The recordings and the limits, behind one lock.
    private struct State {
        /// The recording taking new samples.
        var current: CaptureRecording?
        /// Recordings asked to stop that still take samples up to their end, then finish.
        var ending: [CaptureRecording] = []
        /// The last recording, for `recordedDuration` and friends once it is over.
        var latest: CaptureRecording?
        var maxDuration = CMTime.invalid
        var maxFileSize: Int64 = 0
        var minFreeSpace: Int64 = 0

        /// The current recording, or else the last one.
        var currentOrLatest: CaptureRecording? { current ?? latest }
    }

    private let state = Locked(State())

    override init() { super.init() }

    // MARK: Limits

    /// The longest a recording may last; when reached, it stops with
    /// `AVError.maximumDurationReached` and a finished file. Default `.invalid`: no limit.
    public var maxRecordedDuration: CMTime {
        get { state.maxDuration }
        set { state.maxDuration = newValue }
    }

    /// The largest a recorded file may grow, in bytes; when reached, the recording stops with
    /// `AVError.maximumFileSizeReached` and a finished file (a little larger, by its movie
    /// header). Default 0: no limit.
    public var maxRecordedFileSize: Int64 {
        get { state.maxFileSize }
        set { state.maxFileSize = newValue }
    }

    /// The free space, in bytes, that must remain on the file's volume; when reached, the
    /// recording stops with `AVError.diskFull` and a finished file. Default 0.
    ///
    /// Linux addition: whatever this says, a recording stops while the space to finish the file
    /// is still free (the unwritten fragment, 64 KiB, and 16 bytes a sample for the movie
    /// header), so that the file can always be finished.
    public var minFreeDiskSpaceLimit: Int64 {
        get { state.minFreeSpace }
        set { state.minFreeSpace = newValue }
    }

    // MARK: State

    /// The file being recorded, or nil when not recording.
    public var outputFileURL: URL? { state.current?.url }

    /// Whether a recording is under way (false from `stopRecording()` on, while the file is
    /// finished in the background).
    public var isRecording: Bool { state.current != nil }

    /// Whether the recording is paused.
    public var isRecordingPaused: Bool { state.withLock { $0.current?.isPaused ?? false } }

    /// The media time recorded to the current (or last) file so far, pauses excluded.
    public var recordedDuration: CMTime { state.withLock { $0.currentOrLatest }?.recordedDuration ?? .zero }

    /// The size of the current (or last) file so far, in bytes, counting the samples held for
    /// an unfinished movie fragment.
    public var recordedFileSize: Int64 { state.withLock { $0.currentOrLatest }?.recordedFileSize ?? 0 }

    /// Video frames missing from the current (or last) recording between its first and last
    /// frames: dropped by the device, or because the encoder could not keep up.
    ///
    /// Linux addition: Apple does not report dropped recording frames.
    public var droppedFrameCount: Int { state.withLock { $0.currentOrLatest }?.droppedFrameCount ?? 0 }

    /// Video frames of the current (or last) recording written to its file.
    ///
    /// Linux addition.
    public var recordedFrameCount: Int { state.withLock { $0.currentOrLatest }?.writtenFrameCount ?? 0 }

    // MARK: Recording

    /// Starts recording to a new file; the delegate hears when the first samples are written and
    /// when the file is finished. While a recording is under way, it stops at the next video
    /// frame and the new one starts with that frame.
    ///
    /// Differs from Apple: a file that stores a camera's H.264 frames as they come
    /// (`AVCaptureMovieFileOutput.setOutputSettings(_:for:)` with an empty dictionary) starts,
    /// and hands over to the next file, at a key frame rather than at the next frame, and a pause
    /// ends at one, so that every frame in the file decodes (waiting at most 2 seconds).
    ///
    /// The file must not exist: an existing file is never overwritten, and the delegate gets
    /// `fileOutput(_:didFinishRecordingTo:from:error:)` with `AVError.fileAlreadyExists`. A URL
    /// that is not a file URL is a programmer error.
    public func startRecording(to outputFileURL: URL, recordingDelegate delegate: any AVCaptureFileOutputRecordingDelegate) {
        Misuse.check(outputFileURL.isFileURL, .recordingURLNotFileURL)
        let connections = self.connections.filter(\.isActive)
        let recording: CaptureRecording
        do {
            let limits = state.withLock { ($0.maxDuration, $0.maxFileSize, $0.minFreeSpace) }
            recording = try CaptureRecording(url: outputFileURL,
                                             plan: try recordingPlan(for: connections, to: outputFileURL, maxDuration: limits.0,
                                                                     maxFileSize: limits.1, minFreeDiskSpace: limits.2),
                                             connections: connections, output: self, delegate: delegate)
        } catch {
            var info = error.userInfo
            info[AVErrorRecordingSuccessfullyFinishedKey] = false
            let failure = AVError(error.code, userInfo: info)
            // Apple calls delegates on a queue of its own; the delegate is the client's to make safe.
            nonisolated(unsafe) let delegate = delegate
            DispatchQueue.global().async {
                delegate.fileOutput(self, didFinishRecordingTo: outputFileURL, from: connections, error: failure)
            }
            return
        }
        state.withLock { s in
            if let current = s.current {
                current.stopAtNextFrame(handingOver: true)
                s.ending.append(current)
            }
            s.current = recording
            s.latest = recording
        }
        needsChanged()
    }

    /// Stops the recording at the next video frame; the delegate hears when the file is
    /// finished. Does nothing when not recording.
    public func stopRecording() {
        state.withLock { s in
            guard let current = s.current else { return }
            current.stopAtNextFrame(handingOver: false)
            s.ending.append(current)
            s.current = nil
        }
    }

    /// Pauses the recording at the next video frame: nothing is written until
    /// `resumeRecording()`, and the pause leaves no gap in the file.
    public func pauseRecording() {
        state.current?.pause()
    }

    /// Resumes a paused recording at the next video frame.
    public func resumeRecording() {
        state.current?.resume()
    }

    // MARK: For subclasses and the session

    /// What a recording of `connections` to `url` writes (subclasses: the encoders and file options).
    func recordingPlan(for connections: [AVCaptureConnection], to url: URL, maxDuration: CMTime, maxFileSize: Int64,
                       minFreeDiskSpace: Int64) throws(AVError) -> CaptureRecording.Plan {
        Misuse.fail(.fileOutputIsAbstract)
    }

    /// A recording finished its file.
    func recordingDidFinish(_ recording: CaptureRecording) {
        state.withLock { s in
            s.ending.removeAll { $0 === recording }
            if s.current === recording { s.current = nil }
        }
        needsChanged()
    }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        forEachRecording { $0.receive(sample) }
    }

    /// Pictures are needed while a recording encodes video.
    override func needsDecodedVideo(from connection: AVCaptureConnection) -> Bool {
        var needs = false
        forEachRecording { needs = needs || $0.needsPictures }
        return needs
    }

    override func sessionWillStop(with error: AVError) {
        forEachRecording { $0.finish(because: error) }
    }

    override func sessionDidStopRunning() {
        forEachRecording { $0.finish(because: nil) }
    }

    /// Calls `body` with each recording that still takes samples: those finishing, then the
    /// current one. The lock is held throughout, so that a recording started meanwhile sees
    /// every sample its predecessor sees after being asked to hand over (`body` only enqueues).
    private func forEachRecording(_ body: (CaptureRecording) -> Void) {
        state.withLock { s in
            for recording in s.ending { body(recording) }
            if let current = s.current { body(current) }
        }
    }
}
