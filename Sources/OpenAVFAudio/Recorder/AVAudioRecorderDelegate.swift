import Foundation

/// What an audio recorder tells about a recording's end and its encoding errors.
///
/// Linux: Apple's optional methods are requirements with default implementations that do
/// nothing. Called on the recorder's own queue (Apple calls on the main thread).
public protocol AVAudioRecorderDelegate: AnyObject {
    /// The recording ended: stopped, its duration reached, or its input lost
    /// (`successfully` false). The file is complete either way.
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)
    /// Encoding failed while recording (a full disk); the recording stops.
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?)
}

extension AVAudioRecorderDelegate {
    /// Does nothing.
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}
    /// Does nothing.
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) {}
}
