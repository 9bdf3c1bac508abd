import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// What an export preset writes: the codecs, the size box and the rates behind each of Apple's
/// preset names (the table in the README), and which assets and file types it fits.
struct ExportPreset: Sendable {
    /// How the video is written.
    enum Video: Sendable {
        /// No video track.
        case none
        /// Stored as it is.
        case passthrough
        /// Encoded with `codec`, fitted inside `box` (never upscaled; nil keeps the size), at
        /// `bitsPerPixel` bits per pixel and frame (nil: ProRes, whose rate is its profile's).
        case encode(codec: AVVideoCodecType, box: (width: Int, height: Int)?, bitsPerPixel: Double?)
    }

    /// How the audio is written.
    enum Audio: Sendable {
        /// Stored as it is.
        case passthrough
        /// AAC at this many bits per second for two channels (half for one).
        case aac(bitRate: Int)
        /// 16-bit linear PCM.
        case linearPCM
    }

    let name: String
    let video: Video
    let audio: Audio
    /// The file types the preset writes, in Apple's order.
    let fileTypes: [AVFileType]

    private static let movieTypes: [AVFileType] = [.mov, .mp4, .m4v]

    private static func h264(_ name: String, _ box: (Int, Int)?, bpp: Double, audio: Int) -> ExportPreset {
        ExportPreset(name: name, video: .encode(codec: .h264, box: box.map { (width: $0.0, height: $0.1) }, bitsPerPixel: bpp),
                     audio: .aac(bitRate: audio), fileTypes: movieTypes)
    }

    private static func hevc(_ name: String, _ box: (Int, Int)?, bpp: Double) -> ExportPreset {
        ExportPreset(name: name, video: .encode(codec: .hevc, box: box.map { (width: $0.0, height: $0.1) }, bitsPerPixel: bpp),
                     audio: .aac(bitRate: 192_000), fileTypes: movieTypes)
    }

    /// Every preset, in the order `allExportPresets()` lists them.
    static let all: [ExportPreset] = [
        h264(AVAssetExportPresetLowQuality, (224, 168), bpp: 0.25, audio: 64_000),
        h264(AVAssetExportPresetMediumQuality, (568, 320), bpp: 0.2, audio: 128_000),
        h264(AVAssetExportPresetHighestQuality, nil, bpp: 0.25, audio: 192_000),
        h264(AVAssetExportPreset640x480, (640, 480), bpp: 0.15, audio: 160_000),
        h264(AVAssetExportPreset960x540, (960, 540), bpp: 0.15, audio: 160_000),
        h264(AVAssetExportPreset1280x720, (1280, 720), bpp: 0.15, audio: 192_000),
        h264(AVAssetExportPreset1920x1080, (1920, 1080), bpp: 0.15, audio: 192_000),
        h264(AVAssetExportPreset3840x2160, (3840, 2160), bpp: 0.15, audio: 192_000),
        hevc(AVAssetExportPresetHEVC1920x1080, (1920, 1080), bpp: 0.12),
        hevc(AVAssetExportPresetHEVC3840x2160, (3840, 2160), bpp: 0.12),
        hevc(AVAssetExportPresetHEVCHighestQuality, nil, bpp: 0.15),
        hevc(AVAssetExportPresetHEVC7680x4320, (7680, 4320), bpp: 0.12),
        ExportPreset(name: AVAssetExportPresetAppleM4A, video: .none, audio: .aac(bitRate: 192_000), fileTypes: [.m4a]),
        ExportPreset(name: AVAssetExportPresetPassthrough, video: .passthrough, audio: .passthrough, fileTypes: [.mov, .mp4, .m4v, .m4a]),
        ExportPreset(name: AVAssetExportPresetAppleProRes422LPCM, video: .encode(codec: .proRes422, box: nil, bitsPerPixel: nil),
                     audio: .linearPCM, fileTypes: [.mov]),
        ExportPreset(name: AVAssetExportPresetAppleProRes4444LPCM, video: .encode(codec: .proRes4444, box: nil, bitsPerPixel: nil),
                     audio: .linearPCM, fileTypes: [.mov]),
    ]

    /// The preset with Apple's name `name`, or nil.
    static func named(_ name: String) -> ExportPreset? { all.first { $0.name == name } }

    /// The tracks the preset exports from `asset`: its preferred video track (none for an
    /// audio preset) and audio track (`AVAsset.preferredTrack`); for passthrough every video
    /// and audio track that holds samples. Movie presets keep every subtitle track of text as
    /// it is (bitmap subtitles, which have no format here, are left out).
    func sourceTracks(of asset: AVAsset) -> [AVAssetTrack] {
        let subtitles = asset.tracks.filter { $0.mediaType == .subtitle && $0.contents.formatDescription != nil && !$0.contents.isEmpty }
        if case .passthrough = video {
            return asset.tracks.filter { ($0.mediaType == .video || $0.mediaType == .audio) && !$0.contents.isEmpty } + subtitles
        }
        var chosen: [AVAssetTrack] = []
        if case .encode = video, let track = asset.preferredTrack(withMediaType: .video, decodable: true) { chosen.append(track) }
        if let track = asset.preferredTrack(withMediaType: .audio, decodable: true, withSamples: true) { chosen.append(track) }
        if case .encode = video { chosen += subtitles }
        return chosen
    }

    /// Whether the preset can export `asset`: an audio preset needs an audio track, a video
    /// preset a video track it can decode, passthrough any video or audio track.
    func isCompatible(with asset: AVAsset) -> Bool {
        let tracks = sourceTracks(of: asset)
        switch video {
        case .none: return tracks.contains { $0.mediaType == .audio }
        // A composition's tracks are read decoded only.
        case .passthrough: return !tracks.isEmpty && !(asset is AVComposition)
        case .encode: return tracks.contains { $0.mediaType == .video }
        }
    }

    /// The file types this preset can write `asset` to: its own types, narrowed for
    /// passthrough to those whose container stores every track's codec as it is.
    func compatibleFileTypes(for asset: AVAsset) -> [AVFileType] {
        guard isCompatible(with: asset) else { return [] }
        guard case .passthrough = video else { return fileTypes }
        let tracks = sourceTracks(of: asset)
        return fileTypes.filter { type in
            if type == .m4a, tracks.contains(where: { $0.mediaType == .video }) { return false }
            return tracks.allSatisfy { track in
                track.contents.formatDescription.map { AVAssetWriter.canStore(passthrough: $0, in: type) } ?? false
            }
        }
    }

    /// The export's tracks with their reader and writer settings. With a video composition,
    /// the video track has the size of its frames (`renderSize` at `renderScale`) and the
    /// colour it asks for.
    func plan(for asset: AVAsset, videoComposition: AVVideoComposition? = nil) -> [ExportJob.Track] {
        let composedSize = videoComposition.map { composition in
            let scale = Double(composition.renderScale)
            return CGSize(width: (composition.renderSize.width * scale).rounded(), height: (composition.renderSize.height * scale).rounded())
        }
        let color = ColorDescription(primaries: videoComposition?.colorPrimaries, transferFunction: videoComposition?.colorTransferFunction,
                                     yCbCrMatrix: videoComposition?.colorYCbCrMatrix)
        return sourceTracks(of: asset).map { track in
            switch (track.mediaType, video, audio) {
            case (.video, .encode(let codec, let box, let bitsPerPixel), _):
                return videoPlan(track, codec: codec, box: box, bitsPerPixel: bitsPerPixel, composedSize: composedSize, color: color)
            case (.audio, _, .aac(let bitRate)):
                return audioPlan(track, format: kAudioFormatMPEG4AAC, bitRate: bitRate)
            case (.audio, _, .linearPCM):
                return audioPlan(track, format: kAudioFormatLinearPCM, bitRate: nil)
            default:
                return ExportJob.Track(track: track, writerSettings: nil)
            }
        }
    }

    /// The encoded size of a video track: its size fitted inside the box (turned to the
    /// picture's orientation), never larger than it was, with even sides.
    static func fittedSize(width: Int, height: Int, box: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        func even(_ value: Double) -> Int { max(2, Int(value) & ~1) }
        guard let box, width > 0, height > 0 else { return (even(Double(width)), even(Double(height))) }
        let (boxWidth, boxHeight) = height > width ? (box.height, box.width) : (box.width, box.height)
        let scale = min(1, Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        return (even((Double(width) * scale).rounded()), even((Double(height) * scale).rounded()))
    }

    /// The encoded size and bit rate a video track gets: its display size (`naturalSize`, so
    /// non-square pixels are widened: 720x576 at 64:45 shows as 1024x576) fitted into the box,
    /// in square pixels.
    func videoTarget(for track: AVAssetTrack, composedSize: CGSize? = nil) -> (width: Int, height: Int, bitRate: Int?)? {
        guard case .encode(_, let box, let bitsPerPixel) = video else { return nil }
        let width = Int((composedSize ?? track.naturalSize).width.rounded())
        let height = Int((composedSize ?? track.naturalSize).height.rounded())
        let size = Self.fittedSize(width: width, height: height, box: box)
        let rate = Double(track.nominalFrameRate > 0 ? track.nominalFrameRate : 30)
        let bitRate = bitsPerPixel.map { Int(Double(size.width * size.height) * rate * $0) }
        return (size.width, size.height, bitRate)
    }

    /// A video track's settings: encoded at its target size and bit rate, tagged with `color`
    /// filled in from the track's own colour (as Apple's export keeps the source's).
    private func videoPlan(_ track: AVAssetTrack, codec: AVVideoCodecType, box: (width: Int, height: Int)?,
                           bitsPerPixel: Double?, composedSize: CGSize?, color: ColorDescription) -> ExportJob.Track {
        let target = videoTarget(for: track, composedSize: composedSize)!
        var writer: [String: Any] = [AVVideoCodecKey: codec, AVVideoWidthKey: target.width, AVVideoHeightKey: target.height]
        let tags = track.contents.formatDescription.map { color.filled(from: ColorDescription(of: $0)) } ?? color
        let colorProperties = [AVVideoColorPrimariesKey: tags.primaries, AVVideoTransferFunctionKey: tags.transferFunction,
                               AVVideoYCbCrMatrixKey: tags.yCbCrMatrix].compactMapValues { $0 }
        if !colorProperties.isEmpty { writer[AVVideoColorPropertiesKey] = colorProperties }
        if let bitRate = target.bitRate {
            var compression: [String: Any] = [AVVideoAverageBitRateKey: bitRate]
            if track.nominalFrameRate > 0 { compression[AVVideoExpectedSourceFrameRateKey] = Double(track.nominalFrameRate) }
            writer[AVVideoCompressionPropertiesKey] = compression
        }
        return ExportJob.Track(track: track, writerSettings: writer)
    }

    /// The channels (at most two) and sample rate the audio is written with: the source's
    /// rate when AAC takes it, else 48 kHz.
    static func audioFormat(of track: AVAssetTrack, format: AudioFormatID) -> (rate: Int, channels: Int) {
        let asbd = track.contents.formatDescription?.audioStreamBasicDescription
        let channels = Int(min(max(asbd?.mChannelsPerFrame ?? 2, 1), 2))
        let source = Int(asbd?.mSampleRate ?? 48000)
        let aacRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
        let rate = format == kAudioFormatMPEG4AAC && !aacRates.contains(source) ? 48000 : (source > 0 ? source : 48000)
        return (rate, channels)
    }

    private func audioPlan(_ track: AVAssetTrack, format: AudioFormatID, bitRate: Int?) -> ExportJob.Track {
        let (rate, channels) = Self.audioFormat(of: track, format: format)
        var writer: [String: Any] = [AVFormatIDKey: format, AVSampleRateKey: rate, AVNumberOfChannelsKey: channels]
        if let bitRate { writer[AVEncoderBitRateKey] = channels == 1 ? bitRate / 2 : bitRate }
        if format == kAudioFormatLinearPCM { writer[AVLinearPCMBitDepthKey] = 16 }
        return ExportJob.Track(track: track, writerSettings: writer)
    }

    /// The expected bytes per second of the output, for the session's estimates: the
    /// preset's bit rates, or the source's data rates where it stores or has none.
    func estimatedBytesPerSecond(for asset: AVAsset) -> Double {
        plan(for: asset).reduce(0) { total, item in
            let source = Double(item.track.estimatedDataRate) / 8
            switch (item.track.mediaType, video, audio) {
            case (.video, .encode, _):
                if let bitRate = videoTarget(for: item.track)?.bitRate { return total + Double(bitRate) / 8 }
                // ProRes 422: about 150 Mbit/s at 1080p30, ProRes 4444 about 330, in proportion to
                // pixels and rate.
                let target = videoTarget(for: item.track)!
                let rate = Double(item.track.nominalFrameRate > 0 ? item.track.nominalFrameRate : 30)
                var bitsPerPixel = 2.4
                if case .encode(.proRes4444, _, _) = video { bitsPerPixel = 5.3 }
                return total + Double(target.width * target.height) * rate * bitsPerPixel / 8
            case (.audio, _, .aac(let bitRate)):
                return total + Double(bitRate) / 8
            case (.audio, _, .linearPCM):
                let format = Self.audioFormat(of: item.track, format: kAudioFormatLinearPCM)
                return total + Double(format.rate * format.channels * 2)
            default:
                return total + source
            }
        }
    }
}
