import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Assets of files ffmpeg made, checked against ffprobe's view of the same files.
@Suite(.timeLimit(.minutes(10))) struct AVAssetTests {
    static func streams(_ url: URL) throws -> [[String: Any]] {
        try #require(try Fixtures.probe(url)["streams"] as? [[String: Any]])
    }

    @Test func guideLoadValuesAsynchronouslyExample() async throws {
        // "Using Assets": preparing an asset for use.
        let url = try Fixtures.h264AAC()
        let options = [AVURLAssetPreferPreciseDurationAndTimingKey: true]
        let anAsset = AVURLAsset(url: url, options: options)
        var error: NSError?
        #expect(anAsset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        let keys = ["duration"]
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            anAsset.loadValuesAsynchronously(forKeys: keys) { done.resume() }
        }
        let status = anAsset.statusOfValue(forKey: "duration", error: &error)
        #expect(status == .loaded && error == nil)
        #expect(anAsset.providesPreciseDurationAndTiming)
        // ffmpeg made 2 s of video at 25 fps and of AAC audio.
        #expect(abs(anAsset.duration.seconds - 2) < 0.05)
        #expect(anAsset.statusOfValue(forKey: "notAKey", error: &error) == .failed && error != nil)
    }

    @Test func asyncLoadingMatchesFFprobe() async throws {
        let url = try Fixtures.h264AAC()
        let asset = AVURLAsset(url: url)
        let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        let probed = try Self.streams(url)
        #expect(playable)
        #expect(tracks.count == probed.count)
        for (track, stream) in zip(tracks, probed) {
            // MP4 track IDs are what ffprobe calls the stream id ("0x1").
            let id = try #require((stream["id"] as? String).flatMap { Int32($0.dropFirst(2), radix: 16) })
            #expect(track.trackID == id)
            let range = try await track.load(.timeRange)
            let timeBase = try #require((stream["time_base"] as? String)?.split(separator: "/").compactMap { Int64($0) })
            let units = try #require(stream["duration_ts"] as? Int)
            #expect(range.duration == CMTime(value: Int64(units) * timeBase[0], timescale: Int32(timeBase[1])))
        }
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let (size, rate, formats) = try await video.load(.naturalSize, .nominalFrameRate, .formatDescriptions)
        #expect(size == CGSize(width: 320, height: 240))
        #expect(rate == 25)
        #expect(formats.first?.mediaSubType.rawValue == kCMVideoCodecType_H264)
        #expect(try await video.load(.minFrameDuration) == CMTime(value: 1, timescale: 25))
        #expect(try await video.load(.requiresFrameReordering)) // made with B-frames
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(audio.languageCode == "eng")
        #expect(audio.hasMediaCharacteristic(.audible) && !audio.hasMediaCharacteristic(.visual))
        #expect(duration == tracks.map(\.timeRange.end).max())
        #expect(asset.track(withTrackID: video.trackID) === video)
        #expect(try await asset.loadTrack(withTrackID: 99) == nil)
    }

    /// An AAC track's encoder priming (1024 samples the MP4's edit list hides) is not part of
    /// its time range, with or without precise timing, as on Apple platforms: the track starts
    /// at zero, where ffprobe says it starts, and a composition takes its whole time range.
    @Test func anAACTracksPrimingIsNotPartOfItsTimeRange() async throws {
        let url = try Fixtures.make("aac-44100-primed.m4a", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "1", "-c:a", "aac",
        ])
        let stated = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first?["start_time"] as? String)
        #expect(Double(stated) == 0)
        for precise in [false, true] {
            let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: precise])
            let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
            let range = try await track.load(.timeRange)
            #expect(range.start == .zero, "precise \(precise): the track starts at \(range.start.seconds)")
            let composition = AVMutableComposition()
            let audio = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
            try audio.insertTimeRange(range, of: track, at: .zero)
            #expect(composition.duration == range.duration)
        }
    }

    @Test func statusOfAPropertyFollowsLoading() async throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        if case .notYetLoaded = asset.status(of: .duration) {} else { Issue.record("expected notYetLoaded") }
        _ = try await asset.load(.tracks)
        guard case .loaded(let duration) = asset.status(of: .duration) else {
            Issue.record("expected loaded")
            return
        }
        #expect(duration.isNumeric)
    }

    @Test func rotatedTrackHasTheFilesDisplayMatrix() async throws {
        let plain = try Fixtures.make("asset-unrotated.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.5", "-c:v", "libx264"])
        let rotated = try Fixtures.make("asset-rotated.mp4", ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let track = try #require(try await AVURLAsset(url: rotated).loadTracks(withMediaType: .video).first)
        // The tkhd matrix ffmpeg writes for rotate=90: a=0 b=-1 c=1 d=0, no translation.
        #expect(try await track.load(.preferredTransform) == CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0))
        #expect(track.naturalSize == CGSize(width: 160, height: 120))
        let upright = try #require(try await AVURLAsset(url: plain).loadTracks(withMediaType: .video).first)
        #expect(upright.preferredTransform == .identity)
    }

    @Test func otherContainers() async throws {
        let webm = try Fixtures.make("asset-vp9.webm", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi",
                                                      "-i", "sine=sample_rate=48000", "-t", "1", "-c:v", "libvpx-vp9",
                                                      "-deadline", "realtime", "-c:a", "libopus"])
        let asset = AVURLAsset(url: webm)
        let tracks = try await asset.load(.tracks)
        #expect(tracks.map(\.mediaType) == [.video, .audio])
        // WebM headers state no per-track duration: the asset measures it.
        #expect(abs(try await asset.load(.duration).seconds - 1) < 0.05)
        let mp3 = try Fixtures.make("asset.mp3", ["-f", "lavfi", "-i", "sine=sample_rate=44100", "-t", "1.5", "-c:a", "libmp3lame"])
        let audio = try #require(try await AVURLAsset(url: mp3).loadTracks(withMediaType: .audio).first)
        #expect(audio.formatDescriptions.count == 1)
    }

    @Test func containerMetadataBecomesItems() async throws {
        let url = try Fixtures.make("asset-tagged.mov", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.5", "-c:v", "libx264",
            "-metadata", "title=Hello", "-metadata", "artist=Someone",
            "-metadata", "creation_time=2024-05-01T12:00:00Z", "-metadata", "location=+48.8577+002.2950/",
        ])
        let asset = AVURLAsset(url: url)
        let common = try await asset.load(.commonMetadata)
        let title = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle)
        #expect(title.first?.stringValue == "Hello")
        let artist = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierArtist)
        #expect(artist.first?.stringValue == "Someone")
        let location = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierLocation)
        #expect(location.first?.stringValue == "+48.8577+002.2950/")
        let created = try await asset.load(.creationDate)
        #expect(created?.dateValue == ISO8601DateFormatter().date(from: "2024-05-01T12:00:00Z"))
        #expect(try await asset.load(.availableMetadataFormats).contains(.quickTimeUserData))
        #expect(asset.metadata(forFormat: .quickTimeUserData).contains { $0.stringValue == "Hello" })
    }

    @Test func missingFileFailsWithAnAVError() async throws {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/movie.mov"))
        do {
            _ = try await asset.load(.duration)
            Issue.record("loading a missing file succeeded")
        } catch AVError.failedToLoadMediaData {
            var error: NSError?
            #expect(asset.statusOfValue(forKey: "duration", error: &error) == .failed)
            #expect(error?.domain == AVFoundationErrorDomain)
        }
        #expect(!asset.duration.isValid && asset.tracks.isEmpty && !asset.isPlayable)
    }

    @Test func textRenamedToMP4IsNotRecognized() async throws {
        let url = Fixtures.folder.appendingPathComponent("not-a-movie.mp4")
        try Data(String(repeating: "This is not a movie. ", count: 200).utf8).write(to: url)
        await #expect(throws: AVError.self) { try await AVURLAsset(url: url).load(.tracks) }
        do {
            _ = try await AVURLAsset(url: url).load(.tracks)
        } catch let error as AVError {
            #expect(error.code == .fileFormatNotRecognized || error.code == .failedToParse)
        }
    }
}
