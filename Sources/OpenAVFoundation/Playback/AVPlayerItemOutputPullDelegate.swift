/// What a video output tells the program that pulls pictures from it.
public protocol AVPlayerItemOutputPullDelegate: AnyObject {
    /// New pictures are about to be available, after `requestNotificationOfMediaDataChange`.
    func outputMediaDataWillChange(_ sender: AVPlayerItemOutput)
    /// The pictures held were flushed (a seek or a new item): earlier ones will not come.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPullDelegate {
    /// Does nothing.
    public func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) {}
    /// Does nothing.
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}
