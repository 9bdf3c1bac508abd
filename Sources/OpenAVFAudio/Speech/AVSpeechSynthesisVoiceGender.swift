/// The gender of a voice, as espeak-ng's voice file declares it.
public enum AVSpeechSynthesisVoiceGender: Int, Sendable {
    /// Not declared.
    case unspecified = 0
    /// A male voice.
    case male = 1
    /// A female voice.
    case female = 2
}
