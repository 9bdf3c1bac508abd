import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// 3GPP timed text tracks (MP4's and QuickTime's subtitles, `tx3g`) read through
/// `AVAssetReaderTrackOutput` (issue 35): with nil output settings every sample, the cues and
/// the empty samples between them, is a sample buffer of the stored data at the time and for
/// the duration ffprobe lists for its packet, described by a text format description with the
/// track's sample description. (Matroska's SRT, ASS and WebVTT have no Core Media format yet.)
@Suite(.timeLimit(.minutes(10))) struct SubtitleReadingTests {
    static let cues = "1\n00:00:00,500 --> 00:00:01,500\nHello\n\n2\n00:00:02,000 --> 00:00:03,250\nWorld <i>two</i>\n\n"

    /// A 4 s movie with the two cues as a subtitle track of `codec` in `name`'s container.
    static func movie(_ name: String, codec: String) throws -> URL {
        let srt = FileManager.default.temporaryDirectory.appendingPathComponent("openav-cues-\(UUID().uuidString).srt")
        try Data(cues.utf8).write(to: srt)
        defer { try? FileManager.default.removeItem(at: srt) }
        return try Fixtures.make(name, ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=4", "-i", srt.path,
                                        "-c:v", "libx264", "-c:s", codec, "-metadata:s:s:0", "language=fra"])
    }

    /// The stream's extradata (its `tx3g` sample description) as ffprobe dumps it.
    static func storedSampleDescription(_ url: URL, stream: Int) throws -> [UInt8] {
        let dump = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_entries",
                                                                 "stream=extradata", "-show_data", url.path]), as: UTF8.self)
        return dump.split(whereSeparator: \.isNewline).filter { $0.count > 10 && $0.dropFirst(8).first == ":" }.flatMap { line in
            line.dropFirst(10).prefix(39).split(separator: " ").flatMap { group in
                stride(from: 0, to: group.count, by: 2).compactMap { UInt8(String(group.dropFirst($0).prefix(2)), radix: 16) }
            }
        }
    }

    static let movies: [(String, String)] = [("cues.mp4", "mov_text"), ("cues.mov", "mov_text")]

    @Test(arguments: movies) func passthroughSamplesAreTheCues(_ movie: (String, String)) async throws {
        let url = try Self.movie(movie.0, codec: movie.1)
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaCharacteristic: .legible).first, "\(movie.0): no legible track")
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let samples = AVAssetReaderTests.readAll(output)
        #expect(reader.status == .completed, "\(movie.0): \(String(describing: reader.error))")
        let stream = Int(track.trackID) - 1
        let timeBase = try AVAssetReaderTests.timeBase(url, stream: stream)
        let packets = try AVAssetReaderTests.probeEntries(url, stream: stream, section: "packet", fields: "pts,duration,size")
        #expect(samples.count == packets.count, "\(movie.0)")
        #expect(samples.map(\.presentationTimeStamp) == packets.map { AVAssetReaderTests.time($0[0], timeBase) }, "\(movie.0)")
        #expect(samples.map(\.duration) == packets.map { AVAssetReaderTests.time($0[1], timeBase) }, "\(movie.0)")
        #expect(samples.map(\.totalSampleSize) == packets.map { Int($0[2]) ?? -1 }, "\(movie.0)")
        // A sample is a 16-bit length, the text, then style boxes.
        let texts = samples.map { sample -> String in
            let bytes = [UInt8]((try? sample.dataBuffer?.dataBytes()) ?? Data())
            guard bytes.count >= 2 else { return "?" }
            return String(decoding: bytes.dropFirst(2).prefix(Int(bytes[0]) << 8 | Int(bytes[1])), as: UTF8.self)
        }
        #expect(texts.filter { !$0.isEmpty } == ["Hello", "World two"], "\(movie.0): \(texts)")
        let mediaType: CMFormatDescription.MediaType = track.mediaType == .text ? .text : .subtitle
        #expect(samples.allSatisfy { $0.formatDescription?.mediaType == mediaType }, "\(movie.0)")
        // The description says what the stored sample description says (ffprobe's dump of it):
        // the default style's font size (byte 25) and the font table's one name.
        let description = try #require(samples.first?.formatDescription)
        #expect(description.mediaSubType == .init(rawValue: kCMTextFormatType_3GText))
        let stored = try Self.storedSampleDescription(url, stream: stream)
        let style = description.extensions[kCMTextFormatDescriptionExtension_DefaultStyle] as? NSDictionary
        #expect((style?[kCMTextFormatDescriptionStyle_FontSize] as? NSNumber)?.intValue == Int(stored[25]), "\(String(describing: style))")
        // 'ftab', a 2-byte count, then the first font's 2-byte ID, its name's length and its name.
        let table = try #require((0..<max(0, stored.count - 4)).first { Array(stored[$0..<$0 + 4]) == Array("ftab".utf8) })
        let fontName = String(decoding: stored[(table + 9)..<min(stored.count, table + 9 + Int(stored[table + 8]))], as: UTF8.self)
        let fonts = description.extensions[kCMTextFormatDescriptionExtension_FontTable] as? NSDictionary
        #expect(!fontName.isEmpty && fonts?.allValues.contains { $0 as? String == fontName } == true,
                "\(String(describing: fonts)), stored \(fontName)")
    }
}
