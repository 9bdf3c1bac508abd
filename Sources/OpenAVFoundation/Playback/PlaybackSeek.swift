import Foundation
import OpenCoreMedia

/// A seek asked of a player, whom to tell when it is done, and where it lands. Only the
/// tolerance before the time counts: a key frame after it is not looked for.
struct PlaybackSeek {
    /// The item time asked for.
    var time: CMTime
    /// How far before `time` the seek may land (on a key frame, which decodes at once).
    var toleranceBefore: CMTime
    /// Told whether the seek finished (false: another replaced it, or it could not be done).
    var completion: (@Sendable (Bool) -> Void)?

    /// Where the seek lands in `item`: the time asked for within the item, or the key frame at
    /// or before it when the tolerance allows.
    func target(in item: AVPlayerItem) -> CMTime {
        let duration = item.asset.duration
        var target = max(.zero, time.isNumeric ? time : .zero)
        if duration.isNumeric { target = min(target, duration) }
        if toleranceBefore > .zero, let key = Self.keyFrame(atOrBefore: target, in: item),
           !toleranceBefore.isNumeric || key >= target - toleranceBefore {
            target = key
        }
        return target
    }

    /// The time of the key frame at or before `time` in the item's video (nil without video).
    /// Found by reading the video's packets from there, through the asset's spare demuxer: for
    /// a file on the network that would be another fetch, so there it is not looked for (nil:
    /// the seek is exact, which the tolerance allows).
    private static func keyFrame(atOrBefore time: CMTime, in item: AVPlayerItem) -> CMTime? {
        guard (try? item.asset.loader.contentsBlocking().get())?.isOnNetwork == false,
              let track = item.asset.tracks(withMediaType: .video).first,
              let reader = try? AVAssetReader(asset: item.asset, readsLiveStreams: true) else { return nil }
        reader.timeRange = CMTimeRange(start: time, end: .positiveInfinity)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        guard reader.startReading() else { return nil }
        defer { reader.cancelReading() }
        while let sample = output.copyNextSampleBuffer() {
            let presentation = CMSampleBufferGetPresentationTimeStamp(sample)
            if sample.isSyncSample(at: 0), presentation.isNumeric { return min(presentation, time) }
        }
        return nil
    }
}
