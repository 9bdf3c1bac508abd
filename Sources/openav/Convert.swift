import ArgumentParser
import Dispatch
import Foundation
import HostSystem
import OpenAVFoundation

/// `openav convert IN OUT`: re-encodes or copies a file's first video and audio tracks into a
/// new MOV/MP4/M4V/M4A with explicit settings, through the export session's internals (the
/// asset's reader feeding the one writer).
struct Convert: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-encode or copy a media file's video and audio into a new movie or audio file.",
        discussion: "The output's type follows its extension (.mov, .mp4, .m4v, .m4a). Existing files are never overwritten."
    )

    @Argument(help: "The file to read.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "Video: h264, hevc, prores, jpeg, copy or none.")
    var video = "h264"

    @Option(help: "Audio: aac, alac, opus, pcm, copy or none.")
    var audio = "aac"

    @Option(help: "Video quality from 0 to 1 (default: the encoder's).")
    var quality: Double?

    @Option(help: "Start reading at this time, in seconds.")
    var start: Double?

    @Option(help: "Read this many seconds.")
    var duration: Double?

    @Option(help: "Write a fragmented movie with fragments of this many seconds (readable even if interrupted).")
    var fragment: Double?

    @Flag(help: "Put the movie header first (for streaming).")
    var fastStart = false

    static let fileTypes: [String: AVFileType] = ["mov": .mov, "mp4": .mp4, "m4v": .m4v, "m4a": .m4a]

    func validate() throws {
        guard Self.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()] != nil else {
            throw ValidationError("the output must end in .mov, .mp4, .m4v or .m4a")
        }
        guard ["h264", "hevc", "prores", "jpeg", "copy", "none"].contains(video) else { throw ValidationError("unknown --video \(video)") }
        guard ["aac", "alac", "opus", "pcm", "copy", "none"].contains(audio) else { throw ValidationError("unknown --audio \(audio)") }
    }

    func run() async throws {
        let asset = AVURLAsset(url: URL(mediaArgument: input))
        do {
            _ = try await asset.load(.tracks)
        } catch let error as AVError {
            throw CommandFailure("cannot open \(input): \(error.failureText)")
        }
        let fileType = Self.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()]!
        var plans: [ExportJob.Track] = []
        if fileType != .m4a, video != "none", let track = asset.preferredTrack(withMediaType: .video) {
            plans.append(videoPlan(track))
        }
        if audio != "none", let track = asset.preferredTrack(withMediaType: .audio, withSamples: true) {
            plans.append(audioPlan(track))
        }
        guard !plans.isEmpty else { throw CommandFailure("\(input) has no track to convert") }
        for plan in plans where !AVAssetWriter.canStore(outputSettings: plan.writerSettings, mediaType: plan.track.mediaType, in: fileType) {
            throw CommandFailure("a .\(URL(fileURLWithPath: output).pathExtension) file cannot hold \(plan.track.mediaType == .video ? video : audio)")
        }
        // A copied track: the container must carry its codec as it is.
        for plan in plans where plan.writerSettings == nil {
            if let description = plan.track.formatDescriptions.first as! CMFormatDescription?,
               let refusal = AVAssetWriter.passthroughRefusal(description, in: fileType, alternatives: [.mp4, .mov, .m4a]) {
                throw CommandFailure("cannot copy the \(plan.track.mediaType == .video ? "video" : "audio") of \(input): \(refusal)")
            }
        }

        var options = ExportJob.Options()
        if start != nil || duration != nil {
            options.timeRange = CMTimeRange(start: asset.timelineOrigin + CMTime(seconds: start ?? 0, preferredTimescale: 600),
                                            duration: duration.map { CMTime(seconds: $0, preferredTimescale: 600) } ?? .positiveInfinity)
        }
        options.metadata = asset.metadata
        options.shouldOptimizeForNetworkUse = fastStart
        if let fragment { options.movieFragmentInterval = CMTime(seconds: fragment, preferredTimescale: 600) }
        let job = ExportJob(asset: asset, outputURL: URL(fileURLWithPath: output), fileType: fileType, tracks: plans, options: options)

        // The same export internals as `openav export`, with this command's settings.
        let progress = ProgressValue()
        let interrupt = InterruptHandler { job.cancel() }
        let range = ExportJob.effectiveRange(options.timeRange, assetDuration: asset.duration, origin: asset.timelineOrigin)
        let line = ProgressLine(mediaSeconds: range.duration.seconds) { progress.value }
        let result: Result<Void, AVError> = await withCheckedContinuation { done in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(AVError) {
                    try job.run { progress.value = $0 }
                    done.resume(returning: .success(()))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        line.finish()
        interrupt.cancel()
        if case .failure(let error) = result {
            if error.code == .operationCancelled { throw CommandFailure("cancelled; \(output) was not written") }
            throw CommandFailure("cannot convert \(input): \(error.failureText)")
        }
        print("\(output): \(plans.map { $0.track.mediaType == .video ? "video \(video)" : "audio \(audio)" }.joined(separator: ", "))")
    }

    /// How the video track is exported.
    func videoPlan(_ track: AVAssetTrack) -> ExportJob.Track {
        if video == "copy" { return ExportJob.Track(track: track, writerSettings: nil) }
        let codecs: [String: AVVideoCodecType] = ["h264": .h264, "hevc": .hevc, "prores": .proRes422, "jpeg": .jpeg]
        let description = track.formatDescriptions.first as! CMFormatDescription?
        let size = description.map { CMVideoFormatDescriptionGetDimensions($0) }
        var settings: [String: Any] = [
            AVVideoCodecKey: codecs[video]!,
            AVVideoWidthKey: Int(size?.width ?? Int32(track.naturalSize.width)),
            AVVideoHeightKey: Int(size?.height ?? Int32(track.naturalSize.height)),
        ]
        // Same pixels, same shape: non-square pixels (an anamorphic DVD's 64:45) stay as they are.
        if let description, let aspect = CMFormatDescriptionGetExtension(description, extensionKey: kCMFormatDescriptionExtension_PixelAspectRatio) as? [String: Any],
           let horizontal = aspect[kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing as String] as? Int,
           let vertical = aspect[kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing as String] as? Int, horizontal != vertical {
            settings[AVVideoPixelAspectRatioKey] = [AVVideoPixelAspectRatioHorizontalSpacingKey: horizontal,
                                                   AVVideoPixelAspectRatioVerticalSpacingKey: vertical]
        }
        if let quality { settings[AVVideoCompressionPropertiesKey] = [AVVideoQualityKey: quality] }
        return ExportJob.Track(track: track, writerSettings: settings)
    }

    /// How the audio track is exported.
    func audioPlan(_ track: AVAssetTrack) -> ExportJob.Track {
        if audio == "copy" { return ExportJob.Track(track: track, writerSettings: nil) }
        let asbd = (track.formatDescriptions.first as! CMFormatDescription?)?.audioStreamBasicDescription
        let rate = asbd?.mSampleRate ?? 48000, channels = Int(min(asbd?.mChannelsPerFrame ?? 2, 2))
        let formats: [String: AudioFormatID] = ["aac": kAudioFormatMPEG4AAC, "alac": kAudioFormatAppleLossless,
                                                "opus": kAudioFormatOpus, "pcm": kAudioFormatLinearPCM]
        let outputRate = audio == "opus" ? 48000 : rate
        var settings: [String: Any] = [AVFormatIDKey: formats[audio]!, AVSampleRateKey: outputRate, AVNumberOfChannelsKey: channels]
        if audio == "pcm" { settings[AVLinearPCMBitDepthKey] = 16 }
        return ExportJob.Track(track: track, writerSettings: settings)
    }
}

/// The latest progress of work on another thread.
final class ProgressValue: @unchecked Sendable {
    /// The fraction done, from 0 to 1.
    @Locked var value: Float = 0
}
