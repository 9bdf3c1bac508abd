import Foundation
import OpenAVFoundation

/// An OpenTimelineIO timeline (JSON, `Timeline.1`) read into an `EditPlan`: each track's items
/// laid end to end, clips with their source ranges (stretched by a `LinearTimeWarp`), gaps as
/// time, `SMPTE_Dissolve` transitions as the outgoing clip fading over the incoming one (both
/// extended into their handles by the transition's offsets) and their sounds crossfading.
/// Video tracks later in the stack are drawn on top. Anything else is refused by name.
struct OpenTimeline {
    /// A JSON object of the file.
    typealias Object = [String: Any]

    private let root: Object
    /// Where relative media paths start.
    private let folder: URL

    init(_ data: Data, folder: URL) throws {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? Object else {
            throw CommandFailure("the timeline is not OpenTimelineIO JSON")
        }
        self.root = root
        self.folder = folder
    }

    /// The edit the timeline describes, its media opened.
    func plan() async throws -> EditPlan {
        guard Self.schema(root) == "Timeline" else { throw Self.unsupported(root, "as the document (a Timeline is needed)") }
        guard let stack = root["tracks"] as? Object, Self.schema(stack) == "Stack" else {
            throw CommandFailure("the timeline has no stack of tracks")
        }
        var plan = EditPlan()
        var assets: [String: AVURLAsset] = [:]
        var videoLayer = 0
        for case let track as Object in stack["children"] as? [Any] ?? [] {
            guard Self.schema(track) == "Track" else { throw Self.unsupported(track, "inside the stack (only tracks are read)") }
            let kind = (track["kind"] as? String ?? "Video")
            guard kind == "Video" || kind == "Audio" else { throw CommandFailure("tracks of kind \(kind) are not supported") }
            let media: AVMediaType = kind == "Video" ? .video : .audio
            plan.clips += try await clips(of: track, media: media, layer: videoLayer, assets: &assets)
            if media == .video { videoLayer += 1 }
        }
        return plan
    }

    /// The clips of one track, placed.
    private func clips(of track: Object, media: AVMediaType, layer: Int, assets: inout [String: AVURLAsset]) async throws -> [EditPlan.Clip] {
        let items = (track["children"] as? [Any] ?? []).compactMap { $0 as? Object }
        var clips: [EditPlan.Clip] = []
        var time = CMTime.zero
        var pendingDissolve: (inOffset: CMTime, outOffset: CMTime)?
        for item in items {
            switch Self.schema(item) {
            case "Gap":
                time = time + (try Self.range(item["source_range"], "a gap's source_range").duration)
                pendingDissolve = nil
            case "Transition":
                let type = item["transition_type"] as? String ?? ""
                guard type == "SMPTE_Dissolve" else { throw CommandFailure("transitions of type \(type) are not supported (only SMPTE_Dissolve)") }
                guard let previous = clips.indices.last, clips[previous].end == time else {
                    throw CommandFailure("a dissolve must come between two clips")
                }
                let inOffset = try Self.time(item["in_offset"], "a transition's in_offset")
                let outOffset = try Self.time(item["out_offset"], "a transition's out_offset")
                // The outgoing clip plays on into its handle, fading out over the dissolve.
                let dissolve = CMTimeRange(start: time - inOffset, end: time + outOffset)
                let old = clips[previous]
                clips[previous] = Self.extend(old, by: outOffset)
                clips[previous].opacity.append(.init(range: dissolve, from: 1, to: 0))
                clips[previous].volume.append(.init(range: dissolve, from: 1, to: 0))
                pendingDissolve = (inOffset, outOffset)
            case "Clip":
                var clip = try await self.clip(item, at: time, media: media, layer: layer, assets: &assets)
                time = clip.end
                if let dissolve = pendingDissolve {
                    // The incoming clip starts early, from its handle, sounding in over the dissolve.
                    clip = try Self.extend(clip, earlierBy: dissolve.inOffset)
                    clip.volume.append(.init(range: CMTimeRange(start: clip.start, duration: dissolve.inOffset + dissolve.outOffset), from: 0, to: 1))
                    pendingDissolve = nil
                }
                clips.append(clip)
            default:
                throw Self.unsupported(item, "in a track")
            }
        }
        return clips
    }

    /// A clip item, at `time` on its track.
    private func clip(_ item: Object, at time: CMTime, media: AVMediaType, layer: Int,
                      assets: inout [String: AVURLAsset]) async throws -> EditPlan.Clip {
        let name = item["name"] as? String ?? "a clip"
        if let enabled = item["enabled"] as? Bool, !enabled { throw CommandFailure("\(name) is disabled; disabled clips are not supported") }
        let reference: Object?
        if let references = item["media_references"] as? Object {
            reference = references[item["active_media_reference_key"] as? String ?? "DEFAULT_MEDIA"] as? Object
        } else {
            reference = item["media_reference"] as? Object
        }
        guard let reference, Self.schema(reference) == "ExternalReference", let target = reference["target_url"] as? String else {
            throw Self.unsupported(reference ?? [:], "as the media of \(name) (an ExternalReference is needed)")
        }
        let range = try Self.range(item["source_range"] ?? reference["available_range"], "the source_range of \(name)")
        var speed = 1.0
        for case let effect as Object in item["effects"] as? [Any] ?? [] {
            guard Self.schema(effect) == "LinearTimeWarp", let scalar = effect["time_scalar"] as? Double, scalar > 0 else {
                throw Self.unsupported(effect, "as an effect of \(name) (only LinearTimeWarp with a positive time_scalar)")
            }
            speed *= scalar
        }
        let url = target.hasPrefix("file://") ? URL(string: target) ?? URL(fileURLWithPath: target)
            : URL(fileURLWithPath: target, relativeTo: folder).absoluteURL
        let asset: AVURLAsset
        if let opened = assets[url.path] {
            asset = opened
        } else {
            asset = try await EditPlan.open([url.path])[0]
            assets[url.path] = asset
        }
        let used = speed == 1 ? range.duration : CMTimeMultiplyByFloat64(range.duration, multiplier: speed)
        var clip = EditPlan.Clip(asset: asset, source: CMTimeRange(start: range.start, duration: used), start: time, duration: range.duration)
        clip.media = [media]
        clip.layer = layer
        return clip
    }

    /// A clip playing on `extra` longer at its end (into the media after its range).
    private static func extend(_ clip: EditPlan.Clip, by extra: CMTime) -> EditPlan.Clip {
        var extended = clip
        extended.source.duration = clip.source.duration + sourceDuration(of: extra, in: clip)
        extended.duration = clip.duration + extra
        return extended
    }

    /// A clip starting `extra` earlier (from the media before its range).
    private static func extend(_ clip: EditPlan.Clip, earlierBy extra: CMTime) throws -> EditPlan.Clip {
        let sourceExtra = sourceDuration(of: extra, in: clip)
        guard clip.source.start >= sourceExtra else { throw CommandFailure("a dissolve needs media before a clip's start, and there is none") }
        var extended = clip
        extended.source = CMTimeRange(start: clip.source.start - sourceExtra, duration: clip.source.duration + sourceExtra)
        extended.start = clip.start - extra
        extended.duration = clip.duration + extra
        return extended
    }

    /// How much of a clip's media `duration` of its time on the timeline plays.
    private static func sourceDuration(of duration: CMTime, in clip: EditPlan.Clip) -> CMTime {
        CMTimeMapDurationFromRangeToRange(duration, fromRange: CMTimeRange(start: clip.start, duration: clip.duration), toRange: clip.source)
    }

    /// The schema name of an object, without its version ("Clip" of "Clip.2").
    private static func schema(_ object: Object) -> String {
        String((object["OTIO_SCHEMA"] as? String ?? "").split(separator: ".").first ?? "")
    }

    private static func unsupported(_ object: Object, _ place: String) -> CommandFailure {
        CommandFailure("\(object["OTIO_SCHEMA"] as? String ?? "an object without a schema") is not supported \(place)")
    }

    /// A `RationalTime` as an exact time where its rate allows (whole rates, and NTSC rates as
    /// multiples of 1000/1001).
    private static func time(_ value: Any?, _ what: String) throws -> CMTime {
        guard let object = value as? Object, let count = object["value"] as? Double, let rate = object["rate"] as? Double, rate > 0 else {
            throw CommandFailure("\(what) is not a RationalTime")
        }
        for scale in [1.0, 1001.0] {
            let timescale = (rate * scale).rounded(), units = count * scale
            if abs(rate * scale - timescale) < 1e-6, units == units.rounded(), timescale <= Double(Int32.max) {
                return CMTime(value: Int64(units), timescale: Int32(timescale))
            }
        }
        return CMTime(seconds: count / rate, preferredTimescale: 90000)
    }

    /// A `TimeRange`.
    private static func range(_ value: Any?, _ what: String) throws -> CMTimeRange {
        guard let object = value as? Object else { throw CommandFailure("\(what) is missing") }
        return CMTimeRange(start: try time(object["start_time"], what), duration: try time(object["duration"], what))
    }
}
