/// The slowest `AVSpeechUtterance.rate`: 0, espeak-ng's 80 words a minute.
public let AVSpeechUtteranceMinimumSpeechRate: Float = 0
/// The default `AVSpeechUtterance.rate`: 0.5, espeak-ng's default 175 words a minute.
public let AVSpeechUtteranceDefaultSpeechRate: Float = 0.5
/// The fastest `AVSpeechUtterance.rate`: 1, espeak-ng's 450 words a minute.
public let AVSpeechUtteranceMaximumSpeechRate: Float = 1
