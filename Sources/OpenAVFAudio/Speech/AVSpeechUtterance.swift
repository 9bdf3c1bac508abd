import Foundation

/// Text to speak and how to speak it: the voice, rate, pitch, volume and the pauses around it.
///
/// The rate maps to espeak-ng's words a minute in two straight lines through Apple's three
/// constants: 0 → 80 (espeak-ng's slowest), 0.5 → 175 (its default), 1 → 450 (its fastest).
/// The pitch multiplier maps by its octaves onto espeak-ng's pitch parameter (0…100, 50 the
/// voice's own): 0.5 → 0, 1 → 50, 2 → 100; espeak-ng's whole range is narrower than those two
/// octaves. Values are pinned to Apple's ranges when spoken. Setting them after the utterance
/// was queued has no effect.
open class AVSpeechUtterance: NSObject, @unchecked Sendable {
    /// The text to speak.
    public let speechString: String
    /// The text to speak, with its attributes (which the synthesizer does not use).
    public let attributedSpeechString: NSAttributedString
    /// The voice; nil for the voice of `AVSpeechSynthesisVoice.currentLanguageCode()`.
    open var voice: AVSpeechSynthesisVoice?
    /// The speaking rate, from `AVSpeechUtteranceMinimumSpeechRate` (0) to
    /// `AVSpeechUtteranceMaximumSpeechRate` (1); `AVSpeechUtteranceDefaultSpeechRate` (0.5) by default.
    open var rate: Float = AVSpeechUtteranceDefaultSpeechRate
    /// The pitch, from 0.5 (lower) to 2 (higher); 1 by default.
    open var pitchMultiplier: Float = 1
    /// The volume, from 0 (silent) to 1 (loudest, the default): a gain on the voice's samples.
    open var volume: Float = 1
    /// Seconds of silence before the utterance is spoken (`didStart` is told after them).
    open var preUtteranceDelay: TimeInterval = 0
    /// Seconds of silence after the utterance, before the next one.
    open var postUtteranceDelay: TimeInterval = 0

    /// An utterance of `string`.
    public init(string: String) {
        speechString = string
        attributedSpeechString = NSAttributedString(string: string)
        super.init()
    }

    /// An utterance of the attributed string's text.
    public init(attributedString string: NSAttributedString) {
        speechString = string.string
        attributedSpeechString = string
        super.init()
    }

    /// espeak-ng's words a minute for `rate` (pinned to 0…1): 80 + 190·rate up to 0.5, then
    /// 175 + 550·(rate − 0.5).
    static func wordsPerMinute(rate: Float) -> Int {
        let r = Double(min(max(rate.isNaN ? 0.5 : rate, AVSpeechUtteranceMinimumSpeechRate), AVSpeechUtteranceMaximumSpeechRate))
        return Int((r <= 0.5 ? 80 + r * 190 : 175 + (r - 0.5) * 550).rounded())
    }

    /// espeak-ng's pitch parameter (0…100) for `multiplier` (pinned to 0.5…2): 50 + 50·log2(multiplier).
    static func espeakPitch(multiplier: Float) -> Int {
        let m = Double(min(max(multiplier.isNaN ? 1 : multiplier, 0.5), 2))
        return Int((50 + 50 * log2(m)).rounded())
    }
}
