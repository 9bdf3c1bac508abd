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
