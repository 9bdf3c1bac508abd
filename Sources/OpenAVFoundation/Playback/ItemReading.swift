import Foundation
import Logging
import OpenCoreMedia

/// One reading of a playing item from a time: a single `AVAssetReader` over the item's asset
/// (one demuxer, so that a file on the network is fetched once) whose outputs are the item's
/// sound (for the sound stream), its pictures (for its video outputs), its timed metadata
/// tracks (for its metadata outputs) and its selected subtitles (for its legible outputs). Each
/// output is taken by its own consumer, on its own thread where it reads ahead: `SoundFeed`,
/// `VideoFrameQueue`, `TimedTrackFeed` (metadata groups, subtitle cues). The
/// reader's session hands each consumer the packets of its stream and keeps those read for
/// another in order until it asks.
///
/// A seek, a new item, or a change of the item's outputs makes a new reading; a change of rate
/// does not (the sound feed changes its stretching in place). `stop()` ends every consumer and
/// cancels the reader, which gives up a network read under way.
final class ItemReading {
    private static let logger = Logger(label: "OpenAVFoundation.AVPlayer")

    /// The item's sound from the sound start, nil when it is not read (no enabled audio track,
    /// no sound output, or it cannot be read: logged, and playback goes on silent).
    let sound: SoundFeed?
    /// The item's pictures from the start, nil without video outputs or an enabled video track.
    let pictures: VideoFrameQueue?
    /// The groups of the item's enabled metadata tracks, when it has metadata outputs.
    let metadata: [TimedTrackFeed<AVTimedMetadataGroup>]
    /// The cues of the item's enabled subtitle track, when it has legible outputs.
    let subtitles: TimedTrackFeed<CMSampleBuffer>?
    private let reader: AVAssetReader?
    /// The video output whose pixel buffer attributes the pictures are decoded for, whether
    /// the metadata tracks are read, and which subtitle track is: what the reading was made for.
    private let pictureSource: AVPlayerItemVideoOutput?
    private let readsMetadata: Bool
    private let subtitleTrackID: CMPersistentTrackID?
    /// The audio track the sound is read from (the item's first enabled one), if any.
    private let soundTrackID: CMPersistentTrackID?

    /// Reads `item` from `start` to its end: its pictures (`picturesAhead` decoded ahead) from
    /// `start`, and, when `soundFrom` is given, its sound from there (at or after `start`) to
    /// be played at `rate`.
    init(_ item: AVPlayerItem, from start: CMTime, soundFrom: CMTime?, rate: Double, picturesAhead: Int) {
        let asset = item.asset
        let end = item.endTime
        let enabled = item.tracks.filter(\.isEnabled)
        let videoOutputs = item.outputs.compactMap { $0 as? AVPlayerItemVideoOutput }
        let readsMetadata = item.outputs.contains { $0 is AVPlayerItemMetadataOutput }
        pictureSource = videoOutputs.first
        self.readsMetadata = readsMetadata
        let subtitleTrack = Self.subtitleTrack(of: item)
        subtitleTrackID = subtitleTrack?.assetTrack?.trackID
        soundTrackID = Self.soundTrack(of: item)?.trackID

        var reader: AVAssetReader?
        do {
            reader = try AVAssetReader(asset: asset, readsLiveStreams: true)
            reader?.timeRange = CMTimeRange(start: start, end: end.isNumeric ? end : .positiveInfinity)
        } catch {
            Self.logger.warning("\(asset) cannot be read: \(error)")
        }

        var soundOutput: AVAssetReaderOutput?
        if let reader, soundFrom != nil, let track = Self.soundTrack(of: item) {
            let output = SoundFeed.makeOutput(track: track, asset: asset, mix: item.audioMix, algorithm: item.audioTimePitchAlgorithm)
            reader.add(output)
            soundOutput = output
        }
        var pictureOutput: AVAssetReaderOutput?
        if let reader, let first = videoOutputs.first, let track = enabled.first(where: { $0.assetTrack?.mediaType == .video })?.assetTrack {
            let output = VideoFrameQueue.makeOutput(track: track, asset: asset, composition: item.videoComposition, settings: first.attributes)
            reader.add(output)
            pictureOutput = output
        }
        var metadataOutputs: [(AVPlayerItemTrack, AVAssetReaderTrackOutput)] = []
        if let reader, readsMetadata {
            for track in enabled {
                guard let assetTrack = track.assetTrack, assetTrack.mediaType == .metadata else { continue }
                let output = AVAssetReaderTrackOutput(track: assetTrack, outputSettings: nil)
                output.alwaysCopiesSampleData = false
                reader.add(output)
                metadataOutputs.append((track, output))
            }
        }
        var subtitleOutput: AVAssetReaderTrackOutput?
        if let reader, let assetTrack = subtitleTrack?.assetTrack {
            let output = AVAssetReaderTrackOutput(track: assetTrack, outputSettings: nil)
            output.alwaysCopiesSampleData = false
            reader.add(output)
            subtitleOutput = output
        }

        guard let reader, !reader.outputs.isEmpty, reader.startReading() else {
            if let reader, !reader.outputs.isEmpty {
                Self.logger.warning("\(asset) cannot be read: \(reader.error.map { "\($0)" } ?? "")")
            }
            self.reader = nil
            sound = nil
            metadata = []
            subtitles = nil
            // Pictures asked for and not readable: the video outputs' queue ends failed.
            pictures = videoOutputs.isEmpty ? nil : VideoFrameQueue(failure: reader?.error)
            return
        }
        self.reader = reader
        let isNetwork = (try? asset.loader.contentsBlocking().get())?.isOnNetwork ?? false
        do {
            sound = try soundOutput.map { output in
                try SoundFeed(output: output, reader: reader, start: soundFrom ?? start, end: end, rate: rate,
                              keepsPitch: item.audioTimePitchAlgorithm != .varispeed, readsAhead: isNetwork)
            }
        } catch {
            Self.logger.warning("the sound of \(asset) cannot be played: \(error)")
            sound = nil
        }
        pictures = pictureOutput.map { VideoFrameQueue(output: $0, reader: reader, ahead: picturesAhead, record: item.accessRecord) }
        metadata = metadataOutputs.map { TimedTrackFeed(metadataOutput: $1, playerItemTrack: $0, reader: reader, start: start) }
        if let subtitleTrack, let subtitleOutput {
            subtitles = TimedTrackFeed(legibleOutput: subtitleOutput, playerItemTrack: subtitleTrack, reader: reader, start: start)
        } else {
            subtitles = nil
        }
    }

    /// Whether the reading serves `item`'s outputs as they are now: the same video output
    /// chooses the pictures' format, metadata is read exactly when some output takes it, and
    /// so is the subtitle track chosen now.
    func serves(_ item: AVPlayerItem) -> Bool {
        let outputs = item.outputs
        return outputs.lazy.compactMap { $0 as? AVPlayerItemVideoOutput }.first === pictureSource
            && outputs.contains { $0 is AVPlayerItemMetadataOutput } == readsMetadata
            && Self.soundTrack(of: item)?.trackID == soundTrackID
            && Self.subtitleTrack(of: item)?.assetTrack?.trackID == subtitleTrackID
    }

    /// The track an item's legible outputs take their cues from: its first enabled subtitle
    /// track (the legible option chosen), when it has legible outputs.
    private static func subtitleTrack(of item: AVPlayerItem) -> AVPlayerItemTrack? {
        guard item.outputs.contains(where: { $0 is AVPlayerItemLegibleOutput }) else { return nil }
        return item.tracks.first { $0.isEnabled && $0.assetTrack?.mediaType == .subtitle }
    }

    /// The audio track an item's sound comes from: its first enabled one.
    private static func soundTrack(of item: AVPlayerItem) -> AVAssetTrack? {
        item.tracks.first { $0.isEnabled && $0.assetTrack?.mediaType == .audio }?.assetTrack
    }

    /// Stops every consumer and cancels the reading.
    func stop() {
        sound?.stop()
        pictures?.stop()
        metadata.forEach { $0.stop() }
        subtitles?.stop()
        reader?.cancelReading()
    }
}
