import Foundation
import OpenCoreMedia

/// Hears about the recordings of an `AVCaptureFileOutput`: started, paused, resumed, finishing
/// and finished.
///
/// Apple's optional methods are requirements with empty default implementations here: a class
/// implements only the ones it needs, and must implement
/// `fileOutput(_:didFinishRecordingTo:from:error:)`, as on Apple platforms. The methods are called on a serial queue
/// of the recording, never on the capture devices' threads.
public protocol AVCaptureFileOutputRecordingDelegate: NSObjectProtocol {
    /// The first samples of a recording were written to `fileURL`.
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL,
                    from connections: [AVCaptureConnection])

    /// The first samples of a recording were written to `fileURL`; `startPTS` is the
    /// presentation time of the first one, on the session's clock (the host time clock). A
    /// delegate that implements this method is not told
    /// `fileOutput(_:didStartRecordingTo:from:)`, as on Apple platforms.
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, startPTS: CMTime,
                    from connections: [AVCaptureConnection])

    /// The recording paused: no samples are written until it resumes.
    func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL,
                    from connections: [AVCaptureConnection])

    /// The recording resumed after a pause; the pause leaves no gap in the file.
    func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL,
                    from connections: [AVCaptureConnection])

    /// The recording is about to stop: no more samples go to the file, which is being finished.
    /// `error` is what stopped it (nil when asked to stop).
    func fileOutput(_ output: AVCaptureFileOutput, willFinishRecordingTo fileURL: URL,
                    from connections: [AVCaptureConnection], error: (any Error)?)

    /// The recording is over. With an error, check its `AVErrorRecordingSuccessfullyFinishedKey`
    /// (`recordingSuccessfullyFinished`): a limit reached (`maximumDurationReached`,
    /// `maximumFileSizeReached`, `diskFull`) or a device unplugged (`deviceWasDisconnected`)
    /// still leaves a finished, playable file, and the key says so.
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL,
                    from connections: [AVCaptureConnection], error: (any Error)?)
}

extension AVCaptureFileOutputRecordingDelegate {
    /// Does nothing.
    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL,
                           from connections: [AVCaptureConnection]) {}

    /// Calls `fileOutput(_:didStartRecordingTo:from:)`: a delegate that implements only that
    /// method hears of the start.
    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, startPTS: CMTime,
                           from connections: [AVCaptureConnection]) {
        fileOutput(output, didStartRecordingTo: fileURL, from: connections)
    }

    /// Does nothing.
    public func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL,
                           from connections: [AVCaptureConnection]) {}

    /// Does nothing.
    public func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL,
                           from connections: [AVCaptureConnection]) {}

    /// Does nothing.
    public func fileOutput(_ output: AVCaptureFileOutput, willFinishRecordingTo fileURL: URL,
                           from connections: [AVCaptureConnection], error: (any Error)?) {}
}
