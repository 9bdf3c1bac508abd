import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Subtitle tracks read through `AVAssetReaderTrackOutput` (issue 35). 3GPP timed text (MP4's
/// and QuickTime's subtitles, `tx3g`) passes through as stored: every sample, cues and the empty
/// samples between them, at the time and for the duration ffprobe lists, described by a
/// subtitle format description with the stored sample description's style and fonts. Text
/// subtitles in other formats (SubRip, ASS, WebVTT) come as 3GPP timed text too, each cue as
/// `ffmpeg -c:s mov_text` converts it.
@Suite(.timeLimit(.minutes(10))) struct SubtitleReadingTests {
    static let cues = "1\n00:00:00,500 --> 00:00:01,500\nHello\n\n2\n00:00:02,000 --> 00:00:03,250\nWorld <i>two</i>\n\n"

    /// A 4 s movie with the two cues as a subtitle track of `codec` in `name`'s container (a
    /// subtitle file alone when `name` is one).
    static func movie(_ name: String, codec: String) throws -> URL {
        // One cue file for every fixture (written whole each time), so that the fixtures made
        // from it are made once.
        let srt = FileManager.default.temporaryDirectory.appendingPathComponent("openav-subtitle-reading-cues.srt")
        try Data(cues.utf8).write(to: srt, options: .atomic)
        if name.hasSuffix(".srt") || name.hasSuffix(".ass") || name.hasSuffix(".vtt") {
            return try Fixtures.make(name, ["-i", srt.path, "-c:s", codec])
        }
        return try Fixtures.make(name, ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=4", "-i", srt.path,
                                        "-c:v", "libx264", "-c:s", codec])
    }

    static let movies: [(String, String)] = [
        ("cues.mp4", "mov_text"), ("cues.mov", "mov_text"), ("cues.mkv", "srt"), ("cues-ass.mkv", "ass"),
        ("cues-vtt.mkv", "webvtt"), ("cues.srt", "srt"), ("cues.ass", "ass"), ("cues.vtt", "webvtt"),
    ]

    /// One packet of a stream as ffprobe shows it: times in the stream's units and the data.
    struct StoredPacket { var pts: String, duration: String, data: [UInt8] }

    /// Packets (or, with `section` "stream", the extradata) of stream `stream` as ffprobe dumps them.
    static func stored(_ url: URL, stream: Int, section: String) throws -> [StoredPacket] {
        let arguments = section == "stream"
            ? ["-show_entries", "stream=extradata"] : ["-show_entries", "packet=pts,duration,data"]
        let dump = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_data"]
            + arguments + [url.path]), as: UTF8.self)
        var packets: [StoredPacket] = []
        for line in dump.split(whereSeparator: \.isNewline) {
            if line == "[\(section.uppercased())]" { packets.append(StoredPacket(pts: "", duration: "", data: [])) }
            if line.hasPrefix("pts=") { packets[packets.count - 1].pts = String(line.dropFirst(4)) }
            if line.hasPrefix("duration=") { packets[packets.count - 1].duration = String(line.dropFirst(9)) }
            if line.count > 10, line.dropFirst(8).first == ":" {
                packets[packets.count - 1].data += line.dropFirst(10).prefix(39).split(separator: " ").flatMap { group in
                    stride(from: 0, to: group.count, by: 2).compactMap { UInt8(String(group.dropFirst($0).prefix(2)), radix: 16) }
                }
            }
        }
        return packets
    }

    @Test(arguments: movies) func samplesAreTimedTextAsFFmpegMakesIt(_ movie: (String, String)) async throws {
        let (name, codec) = movie
        let url = try Self.movie(name, codec: codec)
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .subtitle).first, "\(name): no subtitle track")
        #expect(track.hasMediaCharacteristic(.legible))
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let samples = AVAssetReaderTests.readAll(output)
        #expect(reader.status == .completed, "\(name): \(String(describing: reader.error))")
        let stream = name.hasSuffix(".srt") || name.hasSuffix(".ass") || name.hasSuffix(".vtt") ? 0 : 1
        // The oracle: the file itself for timed text, else ffmpeg's conversion into MP4 (whose
        // empty samples for the gaps between cues a file without them does not have).
        let reference: URL
        if codec == "mov_text" {
            reference = url
        } else {
            reference = try Fixtures.make("converted-" + name + ".mp4", ["-i", url.path, "-map", "0:s:0", "-c:s", "mov_text"])
        }
        let referenceStream = codec == "mov_text" ? stream : 0
        let packets = try Self.stored(reference, stream: referenceStream, section: "packet").filter { codec == "mov_text" || $0.data.count > 2 }
        let timeBase = try AVAssetReaderTests.timeBase(reference, stream: referenceStream)
        #expect(samples.map(\.presentationTimeStamp) == packets.map { AVAssetReaderTests.time($0.pts, timeBase) }, "\(name)")
        #expect(samples.map(\.duration) == packets.map { AVAssetReaderTests.time($0.duration, timeBase) }, "\(name)")
        #expect(samples.map { [UInt8]((try? $0.dataBuffer?.dataBytes()) ?? Data()) } == packets.map(\.data), "\(name)")
        // A sample is a 16-bit length, the text, then style boxes.
        let texts = samples.map { sample -> String in
            let bytes = [UInt8]((try? sample.dataBuffer?.dataBytes()) ?? Data())
            guard bytes.count >= 2 else { return "?" }
            return String(decoding: bytes.dropFirst(2).prefix(Int(bytes[0]) << 8 | Int(bytes[1])), as: UTF8.self)
        }
        #expect(texts.filter { !$0.isEmpty } == ["Hello", "World two"], "\(name): \(texts)")
        // The description: a subtitle one of 3GPP text, saying what the stored (or converted)
        // sample description says: the default style's font size (byte 25) and the font table.
        let description = try #require(samples.first?.formatDescription)
        #expect(samples.allSatisfy { $0.formatDescription?.mediaType == .subtitle }, "\(name)")
        #expect(description.mediaSubType == .init(rawValue: kCMTextFormatType_3GText))
        let sampleDescription = try #require(try Self.stored(reference, stream: referenceStream, section: "stream").first).data
        let style = description.extensions[kCMTextFormatDescriptionExtension_DefaultStyle] as? NSDictionary
        #expect((style?[kCMTextFormatDescriptionStyle_FontSize] as? NSNumber)?.intValue == Int(sampleDescription[25]), "\(String(describing: style))")
        // 'ftab', a 2-byte count, then the first font's 2-byte ID, its name's length and its name.
        let table = try #require((0..<max(0, sampleDescription.count - 4)).first { Array(sampleDescription[$0..<$0 + 4]) == Array("ftab".utf8) })
        let fontName = String(decoding: sampleDescription[(table + 9)..<min(sampleDescription.count, table + 9 + Int(sampleDescription[table + 8]))],
                              as: UTF8.self)
        let fonts = description.extensions[kCMTextFormatDescriptionExtension_FontTable] as? NSDictionary
        #expect(!fontName.isEmpty && fonts?.allValues.contains { $0 as? String == fontName } == true, "\(String(describing: fonts)), stored \(fontName)")
    }
}
