import OpenCoreMedia

/// The codes of the errors manual rendering throws (`NSError`s in AVFAudio's domain), with
/// Apple's values.
public enum AVAudioEngineManualRenderingError: OSStatus, Sendable {
    /// The operation needs the engine in (or out of) manual rendering mode, or another mode.
    case invalidMode = -80800
    /// The operation cannot be done while the engine is running (or prepared).
    case initialized = -80801
    /// The operation needs the engine running.
    case notRunning = -80802
}
