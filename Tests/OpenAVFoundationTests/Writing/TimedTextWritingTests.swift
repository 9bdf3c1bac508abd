import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Text written the way chapter and subtitle writers for Apple platforms write it: text inputs
/// stored as they come, samples of QuickTime text (a 16-bit length, the text, an `encd` box),
/// and a chapter-list association. ffprobe and ffmpeg judge the files.
@Suite(.timeLimit(.minutes(5))) struct TimedTextWritingTests {
    /// A QuickTime text description, as chapter writers make one.
    static func chapterDescription() throws -> CMFormatDescription {
        var extensions = CMFormatDescription.Extensions()
        extensions[.displayFlags] = .textDisplayFlags([])
        extensions[.textJustification] = .textJustification(.left)
        extensions[.defaultTextBox] = .textRect(top: 0, left: 0, bottom: 0, right: 0)
        extensions[.defaultStyle] = .qtTextDefaultStyle(startChar: 0, height: 0, ascent: 0, localFontID: 0, fontFace: [], fontSize: 12,
                                                       foregroundColor: .qtTextColor(red: 0, green: 0, blue: 0, alpha: 1),
                                                       defaultFontName: "Helvetica")
        return try CMFormatDescription(mediaType: .text, mediaSubType: .qt, extensions: extensions)
    }

    /// A text sample: the 16-bit length, the UTF-8 text, and the `encd` box saying UTF-8.
    static func textSample(_ text: String, at start: Double, lasting duration: Double, format: CMFormatDescription) throws -> CMSampleBuffer {
        let utf8 = Array(text.utf8)
        let bytes = [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8 + [0, 0, 0, 12] + Array("encd".utf8) + [0, 0, 1, 0]
        let block = try CMBlockBuffer(length: bytes.count)
        try bytes.withUnsafeBytes { try block.replaceDataBytes(with: $0) }
        let timing = CMSampleTimingInfo(duration: CMTime(seconds: duration, preferredTimescale: 600),
                                        presentationTimeStamp: CMTime(seconds: start, preferredTimescale: 600), decodeTimeStamp: .invalid)
        return try CMSampleBuffer(dataBuffer: block, formatDescription: format, numSamples: 1, sampleTimings: [timing], sampleSizes: [bytes.count])
    }

    /// The 2 s fixture's video copied into `fileType`, with `text` (title, start, duration)
    /// written through a text input that the video names as `association` (none: a track of its own).
    static func write(_ fileType: AVFileType, text: [(String, Double, Double)], association: AVAssetTrack.AssociationType?,
                      format: CMFormatDescription) async throws -> URL {
        let source = AVURLAsset(url: try Fixtures.h264AAC())
        let track = try #require(try await source.loadTracks(withMediaType: .video).first)
        let url = Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-text.\(fileType == .mov ? "mov" : "mp4")")
        let writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: nil,
                                       sourceFormatHint: try await track.load(.formatDescriptions).first)
        let textInput = AVAssetWriterInput(mediaType: .text, outputSettings: nil, sourceFormatHint: format)
        textInput.marksOutputTrackAsEnabled = association == nil
        #expect(writer.canAdd(video) && writer.canAdd(textInput))
        writer.add(video)
        writer.add(textInput)
        if let association {
            #expect(video.canAddTrackAssociation(withTrackOf: textInput, type: association.rawValue))
            video.addTrackAssociation(withTrackOf: textInput, type: association.rawValue)
        }
        #expect(writer.startWriting(), "\(String(describing: writer.error))")
        writer.startSession(atSourceTime: .zero)
        let reader = try AVAssetReader(asset: source)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        while let sample = output.copyNextSampleBuffer() { #expect(video.append(sample)) }
        video.markAsFinished()
        for (title, start, duration) in text { #expect(textInput.append(try textSample(title, at: start, lasting: duration, format: format))) }
        textInput.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        return url
    }

    @Test(arguments: [AVFileType.mov, .mp4]) func aChapterListBecomesTheFilesChapters(fileType: AVFileType) async throws {
        let chapters = [("Opening", 0.0, 0.8), ("Middle", 0.8, 0.7), ("Ending", 1.5, 0.5)]
        let url = try await Self.write(fileType, text: chapters, association: .chapterList, format: try Self.chapterDescription())
        let probe = try Fixtures.run("ffprobe", ["-v", "error", "-show_chapters", "-show_streams", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
        let found = try #require(json["chapters"] as? [[String: Any]])
        #expect(found.map { ($0["tags"] as? [String: String])?["title"] } == ["Opening", "Middle", "Ending"])
        let starts = found.compactMap { Double($0["start_time"] as? String ?? "") }
        let ends = found.compactMap { Double($0["end_time"] as? String ?? "") }
        #expect(zip(starts, [0, 0.8, 1.5]).allSatisfy { abs($0 - $1) < 0.01 }, "\(starts)")
        #expect(zip(ends, [0.8, 1.5, 2.0]).allSatisfy { abs($0 - $1) < 0.01 }, "\(ends)")
        // The chapter track is not a stream a player would show: the video and the chapters only.
        let streams = try #require(json["streams"] as? [[String: Any]])
        #expect(streams.filter { $0["codec_type"] as? String == "video" }.count == 1)
        // Read back as Apple's readers read them.
        let asset = AVURLAsset(url: url)
        let groups = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: try await asset.load(.availableChapterLocales).map(\.identifier))
        AVAssetChapterTests.expectSame(AVAssetChapterTests.chapters(groups), try ChapteredClip.probe(url))
    }

    @Test func aTextTrackIsWrittenAsSubtitles() async throws {
        var extensions = CMFormatDescription.Extensions()
        extensions[.displayFlags] = .textDisplayFlags([])
        extensions[.horizontalJustification] = .textJustification(.centered)
        extensions[.verticalJustification] = .textJustification(.bottom)
        extensions[.defaultStyle] = .mobile3GPPTextDefaultStyle(startChar: 0, endChar: 0, localFontID: 1, fontFace: [], fontSize: 18,
                                                                foregroundColor: .mobile3GPPTextColor(red: 1, green: 1, blue: 1, alpha: 1))
        extensions[.fontTable] = .fontTable([1: "Sans-Serif"])
        let format = try CMFormatDescription(mediaType: .text, mediaSubType: .mobile3GPP, extensions: extensions)
        let cues = [("Hello", 0.2, 0.6), ("Wörld", 1.0, 0.5)]
        let url = try await Self.write(.mp4, text: cues, association: nil, format: format)
        let streams = try ExportOracle.streams(url)
        let subtitle = try #require(streams.first { $0["codec_type"] as? String == "subtitle" })
        #expect(subtitle["codec_name"] as? String == "mov_text" && subtitle["codec_tag_string"] as? String == "tx3g")
        // ffmpeg reads the cues back with their times, in the description's font and size.
        let srt = String(decoding: try Fixtures.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:s:0", "-f", "srt", "-"]), as: UTF8.self)
        #expect(srt.contains("00:00:00,200 --> 00:00:00,800\n<font face=\"Sans-Serif\" size=\"18\">Hello</font>"), "\(srt)")
        #expect(srt.contains("00:00:01,000 --> 00:00:01,500\n<font face=\"Sans-Serif\" size=\"18\">Wörld</font>"), "\(srt)")
    }

    @Test func associationsTheFileCannotStoreAreRefused() throws {
        let writer = try AVAssetWriter(outputURL: Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-refused.mov"), fileType: .mov)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: nil)
        let text = AVAssetWriterInput(mediaType: .text, outputSettings: nil)
        let other = AVAssetWriterInput(mediaType: .audio, outputSettings: nil)
        // Not yet added to the writer.
        #expect(!video.canAddTrackAssociation(withTrackOf: text, type: AVAssetTrack.AssociationType.chapterList.rawValue))
        writer.add(video)
        writer.add(text)
        writer.add(other)
        #expect(video.canAddTrackAssociation(withTrackOf: text, type: AVAssetTrack.AssociationType.chapterList.rawValue))
        #expect(!video.canAddTrackAssociation(withTrackOf: other, type: AVAssetTrack.AssociationType.chapterList.rawValue))
        #expect(!video.canAddTrackAssociation(withTrackOf: text, type: AVAssetTrack.AssociationType.forcedSubtitlesOnly.rawValue))
        #expect(!video.canAddTrackAssociation(withTrackOf: video, type: AVAssetTrack.AssociationType.chapterList.rawValue))
        writer.cancelWriting()
    }
}
