/// What an output that pushes media (such as `AVPlayerItemMetadataOutput`) tells its delegate
/// besides the media itself.
public protocol AVPlayerItemOutputPushDelegate: AnyObject {
    /// The output starts a new sequence (after a seek, or when the item starts playing): media
    /// told of before, and not yet used, will not be followed by what came after it.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPushDelegate {
    /// Does nothing.
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}
