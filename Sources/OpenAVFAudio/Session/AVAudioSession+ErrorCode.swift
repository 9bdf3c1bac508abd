extension AVAudioSession {
    /// The session's error codes (`NSOSStatusErrorDomain`), with Apple's values.
    public enum ErrorCode: Int, Sendable {
        /// No error.
        case none = 0
        /// The sound server failed (`'msrv'`).
        case mediaServicesFailed = 1836282486
        /// The session could not be deactivated while in use (`'!act'`).
        case isBusy = 560030580
        /// The category does not allow the operation (`'!cat'`).
        case incompatibleCategory = 560161140
        /// The session could not interrupt others (`'!int'`).
        case cannotInterruptOthers = 560557684
        /// Playing could not start (`'!pla'`).
        case cannotStartPlaying = 561015905
        /// Recording could not start (`'!rec'`).
        case cannotStartRecording = 561145187
        /// A parameter was not valid (-50).
        case badParam = -50
        /// A device or resource was not available (`'!res'`).
        case resourceNotAvailable = 561145203
        /// An unspecified failure (`'what'`).
        case unspecified = 2003329396
        /// The session is not active (`'inac'`).
        case sessionNotActive = 1768841571
    }
}
