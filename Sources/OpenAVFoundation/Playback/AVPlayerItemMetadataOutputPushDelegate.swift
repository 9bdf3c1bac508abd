/// What a metadata output tells its delegate: the timed metadata groups of the playing item.
public protocol AVPlayerItemMetadataOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// New groups are current (or will be within the output's
    /// `advanceIntervalForDelegateInvocation`), in time order, from the item's metadata `track`.
    func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
                        from track: AVPlayerItemTrack?)
}

extension AVPlayerItemMetadataOutputPushDelegate {
    /// Does nothing.
    public func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
                               from track: AVPlayerItemTrack?) {}
}
