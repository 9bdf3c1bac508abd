import ArgumentParser
import Foundation
import MediaEngine
import OpenAVFoundation

/// `openav probe FILE`: the container, duration and tracks of a media file.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the container, duration and tracks of a media file."
    )

    @Argument(help: "The media file to inspect.")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(url: url)
        } catch {
            throw CommandFailure("cannot open \(file): \(error.message)")
        }
        let report = ProbeReport(demuxer: demuxer)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
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

    /// One track.
    struct Track: Encodable {
        let index: Int
        let mediaType: String
        let codec: String
        let codecName: String
        let start: Time?
        let duration: Time?
        let frameCount: Int?
        let width: Int32?
        let height: Int32?
        let frameRate: Double?
        let rotation: Double?
        let sampleRate: Int32?
        let channels: Int32?
        let bitRate: Int64?
        let language: String?

        init(_ stream: StreamDescription) {
            let isVideo = stream.kind == .video
            let isAudio = stream.kind == .audio
            index = stream.index
            mediaType = stream.kind.rawValue
            codec = stream.codecType.fourCCString
            codecName = stream.codecName
            start = Time(stream.startTime)
            duration = Time(stream.duration)
            frameCount = stream.frameCount > 0 ? stream.frameCount : nil
            width = isVideo ? stream.width : nil
            height = isVideo ? stream.height : nil
            frameRate = isVideo && stream.frameRate > 0 ? stream.frameRate : nil
            rotation = isVideo && stream.rotation != 0 ? stream.rotation : nil
            sampleRate = isAudio ? stream.sampleRate : nil
            channels = isAudio ? stream.channelCount : nil
            bitRate = stream.bitRate > 0 ? stream.bitRate : nil
            language = stream.languageCode
        }

        var text: String {
            var parts = ["#\(index) \(mediaType) '\(codec)' (\(codecName))"]
            if let width, let height { parts.append("\(width)x\(height)") }
            if let frameRate { parts.append(String(format: "%.3f fps", frameRate)) }
            if let rotation { parts.append("rotated \(Int(rotation))°") }
            if let sampleRate { parts.append("\(sampleRate) Hz") }
            if let channels { parts.append("\(channels) ch") }
            if let duration { parts.append("duration \(duration.text)") }
            if let frameCount { parts.append("\(frameCount) frames") }
            if let bitRate { parts.append("\(bitRate / 1000) kb/s") }
            if let language { parts.append("language \(language)") }
            return "  " + parts.joined(separator: ", ")
        }
    }

    let file: String
    let format: String
    let duration: Time?
    let tracks: [Track]

    init(demuxer: Demuxer) {
        file = demuxer.url.path
        format = demuxer.formatName
        duration = Time(demuxer.duration)
        tracks = demuxer.streams.map(Track.init)
    }

    var text: String {
        ([
            "\(file)",
            "  format: \(format)",
            "  duration: \(duration?.text ?? "unknown")",
            "  tracks: \(tracks.count)",
        ] + tracks.map(\.text)).joined(separator: "\n")
    }
}
