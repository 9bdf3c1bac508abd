import OpenCoreMedia

/// What a legible output tells its delegate: the subtitle cues of the playing item.
public protocol AVPlayerItemLegibleOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// The text to show from `itemTime` on: one attributed string per cue (with Core Media's
    /// `kCMTextMarkupAttribute_…` attributes), none when the text is to be cleared; or, for
    /// samples of a subtype the output was asked to give natively, those sample buffers.
    func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                       nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime)
}

extension AVPlayerItemLegibleOutputPushDelegate {
    /// Does nothing.
    public func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                              nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime) {}
}
