import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A passthrough export keeps a movie's text subtitles (issue 35): SubRip in Matroska and 3GPP
/// text in MP4 come out as 3GPP text tracks that ffmpeg reads back as the same cues.
@Suite(.timeLimit(.minutes(10))) struct SubtitleExportTests {
    /// The cues of `url`'s first subtitle stream as ffmpeg writes them as SubRip.
    static func cues(_ url: URL) throws -> String {
        String(decoding: try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:s:0", "-f", "srt", "-"]), as: UTF8.self)
    }

    @Test(arguments: [("cues.mkv", "srt", AVFileType.mp4), ("cues.mkv", "srt", .mov), ("cues.mp4", "mov_text", .mov)])
    func passthroughKeepsTheSubtitles(_ movie: (String, String, AVFileType)) async throws {
        let source = try SubtitleReadingTests.movie(movie.0, codec: movie.1)
        let (session, output) = try await ExportOracle.export(source, preset: AVAssetExportPresetPassthrough, fileType: movie.2,
                                                              name: "subtitles-\(movie.0).\(movie.2 == .mov ? "mov" : "mp4")")
        try #require(session.status == .completed, "\(String(describing: session.error))")
        let codecs = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                                  "-of", "csv=p=0", output.path]), as: UTF8.self)
        #expect(codecs.contains("mov_text,subtitle"), "\(codecs)")
        let written = try Self.cues(output)
        #expect(written == (try Self.cues(source)), "\(movie.0) → \(movie.2.rawValue): \(written)")
        #expect(written.contains("Hello") && written.contains("World <i>two</i>"))
    }
}

/// A composition's subtitle track (issue 35): the cues of an edited movie read and exported
/// where the edit puts them.
@Suite(.timeLimit(.minutes(10))) struct SubtitleCompositionTests {
    /// The movie with its first second removed: "Hello" (0.5–1.5 s) keeps 0–0.5 s, "World two"
    /// (2.0–3.25 s) moves to 1.0–2.25 s.
    static func edited() async throws -> AVMutableComposition {
        let asset = AVURLAsset(url: try SubtitleReadingTests.movie("cues.mkv", codec: "srt"))
        let composition = AVMutableComposition()
        try await composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.load(.duration)), of: asset, at: .zero)
        composition.removeTimeRange(CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1)))
        return composition
    }

    @Test func theCuesAreReadWhereTheEditPutsThem() async throws {
        let composition = try await Self.edited()
        let track = try #require(composition.tracks(withMediaType: .subtitle).first)
        let reader = try AVAssetReader(asset: composition)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading(), "\(String(describing: reader.error))")
        let samples = AVAssetReaderTests.readAll(output)
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        #expect(samples.map(\.presentationTimeStamp.seconds) == [0, 1.0])
        #expect(samples.map(\.duration.seconds) == [0.5, 1.25])
        #expect(samples.map(\.totalSampleSize) == [7, 33], "the stored cues, as SubtitleReadingTests reads them")
    }

    @Test func anExportHasTheCuesShiftedByTheEdit() async throws {
        let composition = try await Self.edited()
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset640x480))
        let url = ExportOracle.outputURL("edited-subtitles.mp4")
        session.outputURL = url
        session.outputFileType = .mp4
        await session.export()
        try #require(session.status == .completed, "\(String(describing: session.error))")
        let cues = try SubtitleExportTests.cues(url)
        #expect(cues == "1\n00:00:00,000 --> 00:00:00,500\nHello\n\n2\n00:00:01,000 --> 00:00:02,250\nWorld <i>two</i>\n\n", "\(cues)")
    }
}
