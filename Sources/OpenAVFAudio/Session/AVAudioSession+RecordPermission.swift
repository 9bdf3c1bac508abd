extension AVAudioSession {
    /// Whether the app may record.
    public enum RecordPermission: UInt, Sendable {
        /// Not asked yet (never on Linux).
        case undetermined = 1970168948 // 'undt'
        /// Refused: no input is listed.
        case denied = 1684369017 // 'deny'
        /// Allowed: an input is listed.
        case granted = 1735552628 // 'grnt'
    }
}
