/// The result of one manual render.
public enum AVAudioEngineManualRenderingStatus: Int, Sendable {
    /// The render failed; the error says why.
    case error = -1
    /// Every frame asked for was rendered.
    case success = 0
    /// The input node's block did not give all the frames asked for; the rest is silence.
    case insufficientDataFromInputNode = 1
    /// The render could not be done in the current context (another render under way); try again.
    case cannotDoInCurrentContext = 2
}
