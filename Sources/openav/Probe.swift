import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav probe FILE`: an asset's duration, metadata and tracks, loaded with `AVURLAsset`.
struct Probe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the duration, metadata and tracks of a media file."
    )

    @Argument(help: "The media file to inspect: a path, or an http(s) URL of a file or an HTTP Live Streaming playlist.")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let asset = AVURLAsset(url: URL(mediaArgument: file), options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        let report: ProbeReport
        do {
            let (duration, tracks, metadata, locales) = try await asset.load(.duration, .tracks, .commonMetadata, .availableChapterLocales)
            let chapters = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: locales.map(\.identifier))
            report = ProbeReport(file: file, duration: duration, metadata: metadata, tracks: tracks, chapters: chapters)
        } catch let error as AVError {
            throw CommandFailure("cannot open \(file): \(error.failureText)")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}

extension AVError {
    /// Why an operation failed, for a command's error message: the underlying system error when
    /// there is one ("No such file or directory"), else the failure reason, else the description.
    var failureText: String {
        if let underlying = userInfo[NSUnderlyingErrorKey] as? NSError { return underlying.localizedDescription }
        return userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? localizedDescription
    }
}

/// What `openav probe` reports, as text or JSON.
struct ProbeReport: Encodable {
    /// A time as an exact fraction and in seconds.
    struct Time: Encodable {
        let value: Int64
        let timescale: Int32
        let seconds: Double

        init?(_ time: CMTime) {
            guard time.isNumeric else { return nil }
            value = time.value
            timescale = time.timescale
            seconds = time.seconds
        }

        var text: String { String(format: "%.3f s (%lld/%d)", seconds, value, timescale) }
    }

    /// One metadata item.
    struct Item: Encodable {
        let identifier: String
        let value: String
    }

    /// One chapter: its title and time range.
    struct Chapter: Encodable {
        let title: String
        let start: Time?
        let duration: Time?

        init(_ group: AVTimedMetadataGroup) {
            title = group.items.first { $0.commonKey == .commonKeyTitle }?.stringValue ?? ""
            start = Time(group.timeRange.start)
            duration = Time(group.timeRange.duration)
        }

        var text: String {
            let from = start?.seconds ?? 0
            return "  " + String(format: "%.3f–%.3f s", from, from + (duration?.seconds ?? 0)) + " \(title)"
        }
    }

    /// One track.
    struct Track: Encodable {
        let trackID: Int32
        let mediaType: String
        let codec: String?
        let duration: Time?
        let width: Double?
        let height: Double?
        let frameRate: Float?
        let transform: [Double]?
        let sampleRate: Double?
        let channels: UInt32?
        let language: String?

        init(_ track: AVAssetTrack) {
            let description = track.formatDescriptions.first as? CMFormatDescription
            let isVideo = track.mediaType == .video
            let asbd = description?.audioStreamBasicDescription
            trackID = track.trackID
            mediaType = track.mediaType.rawValue
            // The four-character code where there is a readable one, FFmpeg's name otherwise.
            codec = description.flatMap { ProbeReport.readableFourCC($0.mediaSubType.rawValue) } ?? track.engineCodecName
            duration = Time(track.timeRange.duration)
            width = isVideo ? track.naturalSize.width : nil
            height = isVideo ? track.naturalSize.height : nil
            frameRate = isVideo ? track.nominalFrameRate : nil
            let t = track.preferredTransform
            transform = isVideo && t != .identity ? [t.a, t.b, t.c, t.d, t.tx, t.ty] : nil
            let engine = track.engineAudioFormat
            sampleRate = asbd?.mSampleRate ?? (engine.sampleRate > 0 ? Double(engine.sampleRate) : nil)
            channels = asbd?.mChannelsPerFrame ?? (engine.channels > 0 ? UInt32(engine.channels) : nil)
            language = track.languageCode
        }

        var text: String {
            var parts = ["#\(trackID) \(mediaType)"]
            if let codec { parts.append("'\(codec)'") }
            if let width, let height { parts.append("\(Int(width))x\(Int(height))") }
            if let frameRate, frameRate > 0 { parts.append(String(format: "%.3f fps", frameRate)) }
            if let transform { parts.append("transform \(transform.map { String(format: "%g", $0) }.joined(separator: " "))") }
            if let sampleRate { parts.append("\(Int(sampleRate)) Hz") }
            if let channels { parts.append("\(channels) ch") }
            if let duration { parts.append("duration \(duration.text)") }
            if let language { parts.append("language \(language)") }
            return "  " + parts.joined(separator: ", ")
        }
    }

    let file: String
    let duration: Time?
    let metadata: [Item]
    let tracks: [Track]
    let chapters: [Chapter]

    init(file: String, duration: CMTime, metadata: [AVMetadataItem], tracks: [AVAssetTrack], chapters: [AVTimedMetadataGroup]) {
        self.file = file
        self.duration = Time(duration)
        self.metadata = metadata.compactMap { item in
            guard let identifier = item.identifier else { return nil }
            if let value = item.stringValue { return Item(identifier: identifier.rawValue, value: value) }
            // A picture (cover art) is described, not printed.
            guard let data = item.dataValue else { return nil }
            let kind = item.dataType == kCMMetadataBaseDataType_PNG as String ? "PNG image"
                : item.dataType == kCMMetadataBaseDataType_JPEG as String ? "JPEG image" : "data"
            return Item(identifier: identifier.rawValue, value: "\(kind), \(data.count) bytes")
        }
        self.tracks = tracks.map(Track.init)
        self.chapters = chapters.map(Chapter.init)
    }

    /// A four-character code as text ("avc1"), or nil when its bytes are not printable (the
    /// codes made from a WAVE format tag, such as WMA's).
    static func readableFourCC(_ code: UInt32) -> String? {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7f } ? String(decoding: bytes, as: UTF8.self) : nil
    }

    var text: String {
        (["\(file)", "  duration: \(duration?.text ?? "unknown")"]
            + metadata.map { "  \($0.identifier): \($0.value)" }
            + ["  tracks: \(tracks.count)"] + tracks.map(\.text)
            + (chapters.isEmpty ? [] : ["  chapters: \(chapters.count)"] + chapters.map(\.text))).joined(separator: "\n")
    }
}
