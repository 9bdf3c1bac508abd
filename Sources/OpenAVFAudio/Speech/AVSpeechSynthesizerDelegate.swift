import Foundation

/// What an `AVSpeechSynthesizer` tells its delegate: an utterance starting, finishing, pausing,
/// continuing or cancelled, and each word before it is heard.
///
/// Apple's methods are optional; here they are requirements with default implementations that
/// do nothing. They are called on the synthesizer's own threads, not the main thread.
public protocol AVSpeechSynthesizerDelegate: AnyObject {
    /// The synthesizer began speaking the utterance (after its `preUtteranceDelay`).
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance)
    /// The synthesizer finished speaking the utterance: all of it was heard.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance)
    /// The synthesizer paused speaking the utterance.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance)
    /// The synthesizer went on speaking the paused utterance.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance)
    /// The synthesizer stopped speaking the utterance before its end (`stopSpeaking(at:)`).
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance)
    /// The synthesizer is about to speak the word at `characterRange` (UTF-16, as `NSString`
    /// counts) of the utterance's `speechString`.
    func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                           utterance: AVSpeechUtterance)
}

extension AVSpeechSynthesizerDelegate {
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) {}
    /// Does nothing.
    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                                  utterance: AVSpeechUtterance) {}
}
