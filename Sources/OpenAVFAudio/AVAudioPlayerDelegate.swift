import Foundation

/// What an `AVAudioPlayer` tells its delegate: the end of playing, and a decoding failure.
///
/// Apple's methods are optional; here they are requirements with default implementations
/// that do nothing. They are called on the player's own thread, not the main thread.
public protocol AVAudioPlayerDelegate: AnyObject {
    /// The sound played to its end (every loop), or stopped because it could not be decoded
    /// (`flag` false). Not called after `stop()`.
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    /// The file failed to decode while playing (a corrupt or cut-short file); playing stops.
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
}

extension AVAudioPlayerDelegate {
    /// Does nothing.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    /// Does nothing.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
}
