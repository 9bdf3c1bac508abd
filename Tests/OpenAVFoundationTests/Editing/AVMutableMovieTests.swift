import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Movies edited with `AVMutableMovie` and written with `writeHeader(to:fileType:options:)` as
/// command-line tools for macOS do: ffprobe counts the streams, frames and durations, ffmpeg
/// decodes the files, and packet hashes show that samples are copied as stored.
@Suite(.timeLimit(.minutes(10))) struct AVMutableMovieTests {
    /// A 320x240 H.264 + AAC clip of `seconds` with a key frame every 5 frames (so that cuts at
    /// multiples of 0.2 s fall on key frames) and a tone of `frequency`.
    static func clip(_ name: String, seconds: Int, frequency: Int) throws -> URL {
        try Fixtures.make(name, [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
            "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000",
            "-t", String(seconds), "-ac", "2", "-c:v", "libx264", "-bf", "2", "-g", "5", "-keyint_min", "5", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
    }

    /// A 1 s QuickTime movie.
    static func shortClip() throws -> URL { try clip("movie-short.mov", seconds: 1, frequency: 880) }

    /// A 2 s MPEG-4 file.
    static func keyFramedClip() throws -> URL { try clip("movie-keyframed.mp4", seconds: 2, frequency: 440) }

    static func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    /// Every frame ffmpeg decodes, and the stream durations ffprobe reads.
    static func expectPlayable(_ url: URL, frames: Int, duration: Double, tolerance: Double = 0.05,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let times = try ExportOracle.frameTimes(url)
        #expect(times.count == frames, "\(times.count) frames", sourceLocation: sourceLocation)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "frame times go back", sourceLocation: sourceLocation)
        let decoded = try ExportOracle.frames(url, width: 32, height: 24)
        #expect(decoded.count == frames, "ffmpeg decoded \(decoded.count) frames", sourceLocation: sourceLocation)
        for stream in try ExportOracle.streams(url) where ["video", "audio"].contains(stream["codec_type"] as? String) {
            let seconds = Double(stream["duration"] as? String ?? "") ?? 0
            #expect(abs(seconds - duration) < tolerance, "\(stream["codec_type"] ?? "") lasts \(seconds) s", sourceLocation: sourceLocation)
        }
    }

    @Test func twoFilesBackToBackAreOneMovie() throws {
        let first = AVURLAsset(url: try Fixtures.h264AAC()), second = AVURLAsset(url: try Self.shortClip())
        let url = ExportOracle.outputURL("two-files.mov")
        let movie = AVMutableMovie()
        movie.defaultMediaDataStorage = AVMediaDataStorage(url: url)
        try movie.insertTimeRange(CMTimeRange(start: .zero, duration: first.duration), of: first, at: .zero, copySampleData: true)
        try movie.insertTimeRange(CMTimeRange(start: .zero, duration: second.duration), of: second, at: first.duration, copySampleData: true)
        #expect(movie.tracks.count == 2)
        #expect(movie.tracks(withMediaType: .video).first?.segments.count == 2)
        #expect(abs(movie.duration.seconds - 3) < 0.05)
        try movie.writeHeader(to: url, fileType: .mov, options: .addMovieHeaderToDestination)

        let streams = try ExportOracle.streams(url)
        #expect(streams.map { $0["codec_type"] as? String } == ["video", "audio"])
        try Self.expectPlayable(url, frames: 75, duration: 3)
        // Copied as stored: the video packets are the two files' packets, in order.
        let hashes = try ExportOracle.packetHashes(url, stream: "v:0")
        #expect(hashes == (try ExportOracle.packetHashes(try Fixtures.h264AAC(), stream: "v:0"))
                + (try ExportOracle.packetHashes(try Self.shortClip(), stream: "v:0")))
        // Read back as a movie.
        let written = try AVMutableMovie(url: url, options: nil, error: ())
        #expect(written.tracks(withMediaType: .video).count == 1)
        #expect(abs(written.duration.seconds - 3) < 0.05)
    }

    @Test func removedRangeIsGoneAndTheRestFollows() throws {
        let source = try Self.keyFramedClip()
        let movie = try AVMutableMovie(url: source, options: nil, error: ())
        movie.removeTimeRange(CMTimeRange(start: Self.seconds(0.4), end: Self.seconds(1)))
        #expect(abs(movie.duration.seconds - 1.4) < 0.01)
        let url = ExportOracle.outputURL("removed.mp4")
        try movie.writeHeader(to: url, fileType: .mp4)
        try Self.expectPlayable(url, frames: 35, duration: 1.4)
        let hashes = try ExportOracle.packetHashes(url, stream: "v:0")
        let sourceHashes = try ExportOracle.packetHashes(source, stream: "v:0")
        #expect(hashes == Array(sourceHashes[0..<10] + sourceHashes[25..<50]))
    }

    @Test func insertedAndScaledRangesLastWhatTheEditsSay() throws {
        let asset = AVURLAsset(url: try Self.keyFramedClip())
        let url = ExportOracle.outputURL("scaled.mov")
        let movie = try AVMutableMovie(settingsFrom: nil)
        try movie.insertTimeRange(CMTimeRange(start: Self.seconds(1), duration: Self.seconds(0.6)), of: asset, at: .zero, copySampleData: false)
        try movie.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(0.4)), of: asset, at: .zero, copySampleData: false)
        movie.insertEmptyTimeRange(CMTimeRange(start: Self.seconds(0.4), duration: Self.seconds(0.2)))
        movie.scaleTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(0.4)), toDuration: Self.seconds(0.8))
        #expect(abs(movie.duration.seconds - 1.6) < 0.01)
        try movie.writeHeader(to: url, fileType: .mov)
        // 10 frames shown twice as long, nothing new for 0.2 s (the last frame held), 15 more.
        let times = try ExportOracle.frameTimes(url)
        #expect(times.count == 25, "\(times)")
        if times.count == 25 {
            #expect(abs(times[9] - 0.72) < 0.01 && abs(times[10] - 1) < 0.01 && abs(times[24] - 1.56) < 0.01, "\(times)")
        }
        #expect(abs(try ExportOracle.duration(url) - 1.6) < 0.05)
    }

    @Test func appendedSamplesBecomeTheTrack() async throws {
        let source = AVURLAsset(url: try Fixtures.h264AAC())
        let sourceTrack = try #require(try await source.loadTracks(withMediaType: .video).first)
        let url = ExportOracle.outputURL("appended.mov")
        let movie = AVMutableMovie()
        let track = try #require(movie.addMutableTrack(withMediaType: .video, copySettingsFrom: sourceTrack))
        #expect(throws: AVError.self) {
            try track.append(try #require(try Self.firstSample(of: sourceTrack)), decodeTime: nil, presentationTime: nil)
        }
        track.mediaDataStorage = AVMediaDataStorage(url: url)
        let reader = try AVAssetReader(asset: source)
        let output = AVAssetReaderTrackOutput(track: sourceTrack, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        var firstPresentation = CMTime.invalid
        while let sample = output.copyNextSampleBuffer() {
            var presentation = CMTime.invalid
            try track.append(sample, decodeTime: nil, presentationTime: &presentation)
            if !firstPresentation.isValid { firstPresentation = presentation }
        }
        let media = track.mediaPresentationTimeRange
        #expect(abs(media.duration.seconds - 2) < 0.01)
        #expect(track.mediaDecodeTimeRange.start == .zero)
        #expect(track.insertMediaTimeRange(media, into: CMTimeRange(start: .zero, duration: media.duration)))
        try movie.writeHeader(to: url, fileType: .mov)
        try Self.expectPlayable(url, frames: 50, duration: 2)
        #expect(try ExportOracle.packetHashes(url, stream: "v:0") == (try ExportOracle.packetHashes(try Fixtures.h264AAC(), stream: "v:0")))
    }

    static func firstSample(of track: AVAssetTrack) throws -> CMSampleBuffer? {
        let reader = try AVAssetReader(asset: try #require(track.asset))
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        reader.startReading()
        return output.copyNextSampleBuffer()
    }

    @Test func aTextTrackNamedAsChapterListIsTheFilesChapters() throws {
        let source = try Fixtures.h264AAC()
        let url = ExportOracle.outputURL("chapters.mov")
        let movie = try AVMutableMovie(url: source, options: nil, error: ())
        movie.defaultMediaDataStorage = AVMediaDataStorage(url: url)
        let video = try #require(movie.tracks(withMediaType: .video).first)
        let chapters = try #require(movie.addMutableTrack(withMediaType: .text, copySettingsFrom: nil))
        chapters.isEnabled = false
        let format = try TimedTextWritingTests.chapterDescription()
        for (title, start, duration) in [("Opening", 0.0, 0.8), ("Middle", 0.8, 0.7), ("Ending", 1.5, 0.5)] {
            var presentation = CMTime.invalid
            let sample = try TimedTextWritingTests.textSample(title, at: start, lasting: duration, format: format)
            try chapters.append(sample, decodeTime: nil, presentationTime: &presentation)
            let span = CMTimeRange(start: presentation, duration: sample.duration)
            #expect(chapters.insertMediaTimeRange(span, into: CMTimeRange(start: Self.seconds(start), duration: sample.duration)))
        }
        video.addTrackAssociation(to: chapters, type: .chapterList)
        #expect(video.associatedTracks(ofType: .chapterList) == [chapters])
        #expect(video.availableTrackAssociationTypes == [.chapterList])
        try movie.writeHeader(to: url, fileType: .mov)

        let probe = try Fixtures.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
        let found = try #require(json["chapters"] as? [[String: Any]])
        #expect(found.map { ($0["tags"] as? [String: String])?["title"] } == ["Opening", "Middle", "Ending"])
        let starts = found.compactMap { Double($0["start_time"] as? String ?? "") }
        #expect(zip(starts, [0, 0.8, 1.5]).allSatisfy { abs($0 - $1) < 0.01 }, "\(starts)")
        try Self.expectPlayable(url, frames: 50, duration: 2)
        // Read back: the chapter track is the video's chapter list.
        let written = try AVMutableMovie(url: url, options: nil, error: ())
        let readVideo = try #require(written.tracks(withMediaType: .video).first)
        #expect(readVideo.associatedTracks(ofType: .chapterList).map(\.mediaType) == [.text])
    }

    @Test func aMovieWritesBackIntoItsOwnFile() throws {
        let url = ExportOracle.outputURL("own.mov")
        try FileManager.default.copyItem(at: try Self.shortClip(), to: url)
        let movie = AVMutableMovie(url: url, options: nil)
        movie.tracks(withMediaType: .audio).first?.languageCode = "fra"
        try movie.writeHeader(to: url, fileType: .mov, options: .addMovieHeaderToDestination)
        let audio = try #require(try ExportOracle.streams(url).first { $0["codec_type"] as? String == "audio" })
        #expect((audio["tags"] as? [String: String])?["language"] == "fra")
        try Self.expectPlayable(url, frames: 25, duration: 1)
    }

    @Test func badInputFailsWithAVErrors() throws {
        let missing = Fixtures.folder.appendingPathComponent("no-such-movie.mov")
        #expect(throws: AVError.self) { try AVMutableMovie(url: missing, options: nil, error: ()) }
        let unread = AVMovie(url: missing)
        #expect(unread.tracks.isEmpty)
        #expect(throws: AVError.self) { try unread.writeHeader(to: ExportOracle.outputURL("never.mov"), fileType: .mov) }

        let asset = AVURLAsset(url: try Self.shortClip())
        let movie = AVMutableMovie()
        // Copying sample data needs a storage.
        #expect(throws: AVError.self) {
            try movie.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero, copySampleData: true)
        }
        // A range outside the source track, or of another media type.
        let other = try #require(AVMutableMovie().addMutableTrack(withMediaType: .video, copySettingsFrom: nil))
        let video = try #require(asset.tracks(withMediaType: .video).first), audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(throws: AVError.self) {
            try other.insertTimeRange(CMTimeRange(start: Self.seconds(5), duration: Self.seconds(1)), of: video, at: .zero, copySampleData: false)
        }
        #expect(throws: AVError.self) {
            try other.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(1)), of: audio, at: .zero, copySampleData: false)
        }
        try movie.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero, copySampleData: false)

        // Someone else's file is not replaced unless the options say so.
        let existing = ExportOracle.outputURL("someone-elses.mov")
        let contents = Data("not a movie, and not yours".utf8)
        try contents.write(to: existing)
        do {
            try movie.writeHeader(to: existing, fileType: .mov)
            Issue.record("an existing file was overwritten")
        } catch let error as AVError {
            #expect(error.code == .fileAlreadyExists)
        }
        #expect(try Data(contentsOf: existing) == contents)
        // Nor does a media data storage take one.
        movie.defaultMediaDataStorage = AVMediaDataStorage(url: existing)
        #expect(throws: AVError.self) {
            try movie.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero, copySampleData: true)
        }
        try movie.writeHeader(to: existing, fileType: .mov, options: .truncateDestinationToMovieHeaderOnly)
        try Self.expectPlayable(existing, frames: 25, duration: 1)
        // Not a movie file type.
        #expect(throws: AVError.self) { try movie.writeHeader(to: ExportOracle.outputURL("movie.wav"), fileType: .wav) }
    }

    @Test func movieHeaderDataOpensAsAMovie() throws {
        let movie = AVMovie(url: try Self.shortClip())
        #expect(movie.tracks.count == 2)
        #expect(movie.url != nil && movie.data == nil)
        let data = try movie.makeMovieHeader(fileType: .mov)
        let reopened = AVMovie(data: data)
        #expect(reopened.url == nil && reopened.data == data)
        #expect(reopened.tracks(withMediaType: .video).count == 1)
        #expect(abs(reopened.duration.seconds - 1) < 0.05)
    }
}
