/// Where `AVSpeechSynthesizer` pauses or stops speech.
public enum AVSpeechBoundary: Int, Sendable {
    /// At once, even in the middle of a word.
    case immediate = 0
    /// After the word being spoken.
    case word = 1
}
