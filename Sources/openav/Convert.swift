import ArgumentParser
import Dispatch
import Foundation
import OpenAVFoundation

/// `openav convert IN OUT`: re-encodes or copies a file's first video and audio tracks into a
/// new MOV/MP4/M4V/M4A with `AVAssetReader` and `AVAssetWriter`, as the guide's reencoder does.
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
        let asset = AVURLAsset(url: URL(fileURLWithPath: input))
        let tracks: [AVAssetTrack]
        do {
            tracks = try await asset.load(.tracks)
        } catch let error as AVError {
            throw CommandFailure("cannot open \(input): \(error.failureText)")
        }
        let fileType = Self.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()]!
        let reader: AVAssetReader
        let writer: AVAssetWriter
        do {
            reader = try AVAssetReader(asset: asset)
            writer = try AVAssetWriter(outputURL: URL(fileURLWithPath: output), fileType: fileType)
        } catch let error as AVError {
            throw CommandFailure("cannot convert: \(error.failureText)")
        }
        if start != nil || duration != nil {
            reader.timeRange = CMTimeRange(start: CMTime(seconds: start ?? 0, preferredTimescale: 600),
                                           duration: duration.map { CMTime(seconds: $0, preferredTimescale: 600) } ?? .positiveInfinity)
        }
        writer.shouldOptimizeForNetworkUse = fastStart
        if let fragment { writer.movieFragmentInterval = CMTime(seconds: fragment, preferredTimescale: 600) }

        var pairs: [(AVAssetReaderOutput, AVAssetWriterInput)] = []
        if fileType != .m4a, video != "none", let track = tracks.first(where: { $0.mediaType == .video }) {
            pairs.append(try videoPair(track))
        }
        if audio != "none", let track = tracks.first(where: { $0.mediaType == .audio }) {
            pairs.append(try audioPair(track))
        }
        guard !pairs.isEmpty else { throw CommandFailure("\(input) has no track to convert") }
        for (readerOutput, writerInput) in pairs {
            guard reader.canAdd(readerOutput) else { throw CommandFailure("cannot read the \(readerOutput.mediaType.rawValue) track that way") }
            guard writer.canAdd(writerInput) else {
                throw CommandFailure("a .\(URL(fileURLWithPath: output).pathExtension) file cannot hold \(writerInput.mediaType == .video ? video : audio)")
            }
            reader.add(readerOutput)
            writer.add(writerInput)
        }
        guard reader.startReading() else { throw CommandFailure("cannot read \(input): \(String(describing: reader.error))") }
        guard writer.startWriting() else { throw CommandFailure("cannot write \(output): \(String(describing: writer.error))") }
        writer.startSession(atSourceTime: reader.timeRange.start)

        // The guide's reencoder: each track on its own serialization queue.
        let group = DispatchGroup()
        for (index, (readerOutput, writerInput)) in pairs.enumerated() {
            group.enter()
            let queue = DispatchQueue(label: "openav.convert.\(index)")
            let finished = OnceFlag()
            writerInput.requestMediaDataWhenReady(on: queue) {
                while writerInput.isReadyForMoreMediaData {
                    guard let sample = readerOutput.copyNextSampleBuffer(), writerInput.append(sample) else {
                        writerInput.markAsFinished()
                        if finished.set() { group.leave() }
                        return
                    }
                }
            }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { done.resume() }
        }
        if reader.status == .failed {
            writer.cancelWriting()
            throw CommandFailure("reading failed: \((reader.error as? AVError)?.failureText ?? "unknown error")")
        }
        await writer.finishWriting()
        guard writer.status == .completed else {
            throw CommandFailure("writing failed: \((writer.error as? AVError)?.failureText ?? "unknown error")")
        }
        print("\(output): \(pairs.map { $0.1.mediaType == .video ? "video \(video)" : "audio \(audio)" }.joined(separator: ", "))")
    }

    /// The reader output and writer input for the video track.
    func videoPair(_ track: AVAssetTrack) throws -> (AVAssetReaderOutput, AVAssetWriterInput) {
        if video == "copy" {
            let hint = track.formatDescriptions.first as! CMFormatDescription?
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: nil, sourceFormatHint: hint)
            input.transform = track.preferredTransform
            return (AVAssetReaderTrackOutput(track: track, outputSettings: nil), input)
        }
        let codecs: [String: AVVideoCodecType] = ["h264": .h264, "hevc": .hevc, "prores": .proRes422, "jpeg": .jpeg]
        let size = (track.formatDescriptions.first as! CMFormatDescription?).map { CMVideoFormatDescriptionGetDimensions($0) }
        var settings: [String: Any] = [
            AVVideoCodecKey: codecs[video]!,
            AVVideoWidthKey: Int(size?.width ?? Int32(track.naturalSize.width)),
            AVVideoHeightKey: Int(size?.height ?? Int32(track.naturalSize.height)),
        ]
        if let quality { settings[AVVideoCompressionPropertiesKey] = [AVVideoQualityKey: quality] }
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8Planar,
        ])
        output.alwaysCopiesSampleData = false
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        input.transform = track.preferredTransform
        return (output, input)
    }

    /// The reader output and writer input for the audio track.
    func audioPair(_ track: AVAssetTrack) throws -> (AVAssetReaderOutput, AVAssetWriterInput) {
        if audio == "copy" {
            let hint = track.formatDescriptions.first as! CMFormatDescription?
            return (AVAssetReaderTrackOutput(track: track, outputSettings: nil),
                    AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: hint))
        }
        let asbd = (track.formatDescriptions.first as! CMFormatDescription?)?.audioStreamBasicDescription
        let rate = asbd?.mSampleRate ?? 48000, channels = Int(min(asbd?.mChannelsPerFrame ?? 2, 2))
        let formats: [String: AudioFormatID] = ["aac": kAudioFormatMPEG4AAC, "alac": kAudioFormatAppleLossless,
                                                "opus": kAudioFormatOpus, "pcm": kAudioFormatLinearPCM]
        let outputRate = audio == "opus" ? 48000 : rate
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [
            AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: outputRate, AVNumberOfChannelsKey: channels,
            AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true,
        ])
        output.alwaysCopiesSampleData = false
        var settings: [String: Any] = [AVFormatIDKey: formats[audio]!, AVSampleRateKey: outputRate, AVNumberOfChannelsKey: channels]
        if audio == "pcm" { settings[AVLinearPCMBitDepthKey] = 16 }
        return (output, AVAssetWriterInput(mediaType: .audio, outputSettings: settings))
    }
}

/// A flag that can be set once; tells the first caller.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; true for the first call only.
    func set() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}
