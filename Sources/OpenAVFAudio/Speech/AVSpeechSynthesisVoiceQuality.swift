/// The speech quality of a voice. Every espeak-ng voice is `.default`.
public enum AVSpeechSynthesisVoiceQuality: Int, Sendable {
    /// A basic voice, on the machine by default (every espeak-ng voice).
    case `default` = 1
    /// An enhanced voice (none here).
    case enhanced = 2
    /// A premium voice (none here).
    case premium = 3
}
