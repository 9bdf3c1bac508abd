extension AVAudioSession {
    /// An audio session mode: a specialization of the category. Accepted and kept on Linux;
    /// no mode changes the signal (no voice processing).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        /// The constant's string, as Apple's.
        public let rawValue: String
        /// The constant with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The default mode.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Voice chat.
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// Video chat.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        /// Games.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// Video recording.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Measurement: minimal processing of the input.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Movie playback.
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        /// Spoken audio (podcasts, books).
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// Voice prompts.
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }
}
