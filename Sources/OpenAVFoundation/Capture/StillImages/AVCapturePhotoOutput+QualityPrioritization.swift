extension AVCapturePhotoOutput {
    /// How to weigh a photo's quality against the speed of its delivery: the highest a photo
    /// output prepares for (`maxPhotoQualityPrioritization`) and what one capture asks for
    /// (`AVCapturePhotoSettings.photoQualityPrioritization`).
    ///
    /// Here every photo is one camera frame, encoded at once: no prioritization makes it slower
    /// or better, and the value only takes part in the rule that a capture may not ask for more
    /// than the output prepared for.
    public enum QualityPrioritization: Int, Sendable, Hashable {
        /// Speed of delivery matters most, even at the expense of quality.
        case speed = 1
        /// Quality and speed of delivery are balanced; the default.
        case balanced = 2
        /// Quality matters most, even at the expense of shot-to-shot time.
        case quality = 3
    }
}
