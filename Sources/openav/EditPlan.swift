import Foundation
import OpenAVFoundation

/// An edit the editing commands make (`concat`, `compose`): clips placed on a timeline, on
/// layers (higher on top), with opacity and volume ramps for dissolves, made into an
/// `AVMutableComposition` with the `AVMutableVideoComposition` and `AVMutableAudioMix` that
/// show and sound it. Only the public editing API is used: this is what an app would write.
struct EditPlan {
    /// A ramp of opacity or volume over a span of the timeline.
    struct Ramp {
        let range: CMTimeRange
        let from: Float
        let to: Float
    }

    /// One clip on the timeline.
    struct Clip {
        /// The file and its loaded tracks.
        let asset: AVURLAsset
        /// The span of the file the clip plays.
        var source: CMTimeRange
        /// Where the clip starts on the timeline.
        var start: CMTime
        /// How long the clip lasts on the timeline (another length than the source's plays it
        /// faster or slower).
        var duration: CMTime
        /// Which of the file's tracks the clip uses: its first video and first audio track.
        var media: Set<AVMediaType> = [.video, .audio]
        /// Higher layers are drawn over lower ones; their sound is mixed alike.
        var layer = 0
        var opacity: [Ramp] = []
        var volume: [Ramp] = []

        var end: CMTime { start + duration }
    }

    var clips: [Clip] = []
    /// The size of the pictures; each clip is turned upright and fitted inside, centred.
    var renderSize = CGSize.zero
    /// The interval between pictures.
    var frameDuration = CMTime(value: 1, timescale: 30)

    /// The composition, its video composition and its audio mix.
    func build() throws -> (AVMutableComposition, AVMutableVideoComposition, AVMutableAudioMix) {
        let composition = AVMutableComposition()
        var videoTracks: [AVMutableCompositionTrack] = [], audioTracks: [AVMutableCompositionTrack] = []
        var videoPlaces: [Int: AVMutableCompositionTrack] = [:], audioPlaces: [Int: AVMutableCompositionTrack] = [:]
        for (index, clip) in clips.enumerated().sorted(by: { $0.element.start < $1.element.start }) {
            if clip.media.contains(.video), let video = clip.asset.tracks(withMediaType: .video).first {
                videoPlaces[index] = try place(clip, of: video, in: composition, tracks: &videoTracks)
            }
            if clip.media.contains(.audio), let audio = clip.asset.tracks(withMediaType: .audio).first {
                audioPlaces[index] = try place(clip, of: audio, in: composition, tracks: &audioTracks)
            }
        }
        return (composition, videoComposition(videoPlaces), audioMix(audioPlaces))
    }

    /// Inserts a clip's track into the first composition track free at its start (a new one
    /// when none is), scaled to the clip's duration.
    private func place(_ clip: Clip, of source: AVAssetTrack, in composition: AVMutableComposition,
                       tracks: inout [AVMutableCompositionTrack]) throws -> AVMutableCompositionTrack {
        let track: AVMutableCompositionTrack
        if let free = tracks.first(where: { $0.timeRange.end <= clip.start }) {
            track = free
        } else {
            guard let added = composition.addMutableTrack(withMediaType: source.mediaType, preferredTrackID: kCMPersistentTrackID_Invalid) else {
                throw CommandFailure("cannot add a composition track")
            }
            tracks.append(added)
            track = added
        }
        try track.insertTimeRange(clip.source, of: source, at: clip.start)
        if clip.duration != clip.source.duration {
            track.scaleTimeRange(CMTimeRange(start: clip.start, duration: clip.source.duration), toDuration: clip.duration)
        }
        return track
    }

    /// One instruction per span in which the same clips show, each clip turned upright and
    /// fitted into the render size, the highest layer (then the earliest clip) on top.
    private func videoComposition(_ places: [Int: AVMutableCompositionTrack]) -> AVMutableVideoComposition {
        var cuts = Set<CMTime>()
        for clip in clips {
            cuts.insert(clip.start)
            cuts.insert(clip.end)
        }
        let times = cuts.sorted()
        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = renderSize
        videoComposition.frameDuration = frameDuration
        videoComposition.instructions = zip(times, times.dropFirst()).map { start, end in
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: start, end: end)
            instruction.layerInstructions = clips.indices
                .filter { places[$0] != nil && clips[$0].start <= start && clips[$0].end >= end }
                .sorted { (clips[$0].layer, clips[$1].start) > (clips[$1].layer, clips[$0].start) }
                .map { index in
                    let clip = clips[index], video = clip.asset.tracks(withMediaType: .video)[0]
                    let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: places[index]!)
                    layer.setTransform(fitted(video), at: start)
                    for ramp in clip.opacity {
                        layer.setOpacityRamp(fromStartOpacity: ramp.from, toEndOpacity: ramp.to, timeRange: ramp.range)
                    }
                    return layer
                }
            return instruction
        }
        return videoComposition
    }

    /// A track turned upright by its preferred transform, scaled to fit inside the render size
    /// and centred.
    private func fitted(_ track: AVAssetTrack) -> CGAffineTransform {
        let box = CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform)
        let upright = track.preferredTransform.concatenating(CGAffineTransform(translationX: -box.minX, y: -box.minY))
        let scale = min(renderSize.width / box.width, renderSize.height / box.height)
        return upright.concatenating(CGAffineTransform(scaleX: scale, y: scale))
            .concatenating(CGAffineTransform(translationX: (renderSize.width - box.width * scale) / 2,
                                             y: (renderSize.height - box.height * scale) / 2))
    }

    /// Each audio track's volume: full from each clip's start, then the clip's ramps.
    private func audioMix(_ places: [Int: AVMutableCompositionTrack]) -> AVMutableAudioMix {
        var parameters: [CMPersistentTrackID: AVMutableAudioMixInputParameters] = [:]
        for (index, track) in places {
            let input = parameters[track.trackID] ?? AVMutableAudioMixInputParameters(track: track)
            parameters[track.trackID] = input
            input.setVolume(1, at: clips[index].start)
            for ramp in clips[index].volume {
                input.setVolumeRamp(fromStartVolume: ramp.from, toEndVolume: ramp.to, timeRange: ramp.range)
            }
        }
        let mix = AVMutableAudioMix()
        mix.inputParameters = parameters.keys.sorted().compactMap { parameters[$0] }
        return mix
    }

    /// The upright size of a file's pictures, zero without video.
    static func uprightSize(of asset: AVAsset) -> CGSize {
        guard let track = asset.tracks(withMediaType: .video).first else { return .zero }
        let box = CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform)
        return CGSize(width: box.width.rounded(), height: box.height.rounded())
    }

    /// Opens the files, in order; the first that cannot be read ends the command.
    static func open(_ paths: [String]) async throws -> [AVURLAsset] {
        var assets: [AVURLAsset] = []
        for path in paths {
            let asset = AVURLAsset(url: URL(fileURLWithPath: path))
            do {
                _ = try await asset.load(.tracks, .duration)
            } catch let error as AVError {
                throw CommandFailure("cannot open \(path): \(error.failureText)")
            }
            assets.append(asset)
        }
        return assets
    }
}
