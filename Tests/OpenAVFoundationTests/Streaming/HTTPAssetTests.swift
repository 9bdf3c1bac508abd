import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Assets on a local HTTP server (the tests' own, on loopback): progressive files read with
/// byte ranges and HTTP Live Streams, checked against ffprobe reading the same URLs.
@Suite(.timeLimit(.minutes(10))) struct HTTPAssetTests {
    static func server() throws -> MediaHTTPServer { try StreamingFixtures.server.get() }

    /// ffprobe's streams and format of a URL.
    static func probed(_ url: URL) throws -> (streams: [[String: Any]], format: [String: Any]) {
        let probe = try StreamingFixtures.probe(url)
        return (try #require(probe["streams"] as? [[String: Any]]), try #require(probe["format"] as? [String: Any]))
    }

    static func seconds(_ value: Any?) -> Double? { (value as? String).flatMap(Double.init) }

    @Test func progressiveFileLoadsAsFFprobeReadsIt() async throws {
        let url = try Self.server().url(try StreamingFixtures.progressive())
        let asset = AVURLAsset(url: url)
        let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        let (streams, _) = try Self.probed(url)
        #expect(playable)
        #expect(tracks.map(\.mediaType) == streams.map { $0["codec_type"] as? String == "video" ? .video : .audio })
        for (track, stream) in zip(tracks, streams) {
            let timeBase = try #require((stream["time_base"] as? String)?.split(separator: "/").compactMap { Int64($0) })
            let units = try #require(stream["duration_ts"] as? Int)
            #expect(try await track.load(.timeRange).duration == CMTime(value: Int64(units) * timeBase[0], timescale: Int32(timeBase[1])))
        }
        #expect(duration == tracks.map(\.timeRange.end).max())
        #expect(try await tracks[0].load(.naturalSize) == CGSize(width: 320, height: 240))
    }

    @Test func readerReadsEveryPacketOfAProgressiveFileOverHTTP() async throws {
        let url = try Self.server().url(try StreamingFixtures.progressive())
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let output = AVAssetReaderTrackOutput(track: video, outputSettings: nil)
        let audio = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .audio).first),
                                             outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
        reader.add(output)
        reader.add(audio)
        #expect(reader.startReading())
        var times: [CMTime] = []
        var audioFrames = 0
        while true {
            let sample = output.copyNextSampleBuffer()
            if let sample { times.append(sample.presentationTimeStamp) }
            let sound = audio.copyNextSampleBuffer()
            if let sound { audioFrames += sound.numSamples }
            if sample == nil && sound == nil { break }
        }
        #expect(reader.status == .completed)
        // ffprobe's packet times over the same URL (time base 1/15360 for libx264 at 30 fps).
        let lines = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                  "packet=pts", "-of", "csv=p=0", url.absoluteString]), as: UTF8.self)
        let expected = lines.split(separator: "\n").compactMap { Int64($0.split(separator: ",")[0]) }
            .map { CMTime(value: $0, timescale: 15360) }
        #expect(times == expected)
        #expect(abs(Double(audioFrames) - 6 * 48000) < 1024)
    }

    @Test func imageAtATimeOverHTTPEqualsTheLocalFilesImage() async throws {
        let path = try StreamingFixtures.progressive()
        let remote = AVAssetImageGenerator(asset: AVURLAsset(url: try Self.server().url(path)))
        let local = AVAssetImageGenerator(asset: AVURLAsset(url: StreamingFixtures.folder.appendingPathComponent(path)))
        for generator in [remote, local] {
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
        }
        let time = CMTime(value: 101, timescale: 30)
        let (image, actual) = try await remote.image(at: time)
        let (expected, _) = try await local.image(at: time)
        #expect(actual == time)
        #expect(image.width == 320 && image.height == 240)
        #expect(image.dataProvider?.data == expected.dataProvider?.data)
    }

    @Test(arguments: ["mpegts", "fmp4"])
    func httpLiveStreamLoadsAsFFprobeReadsIt(segmentType: String) async throws {
        let url = try Self.server().url(try StreamingFixtures.hls(segmentType: segmentType))
        let asset = AVURLAsset(url: url)
        let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        let (streams, format) = try Self.probed(url)
        #expect(playable)
        // Every variant's tracks, as ffprobe lists them: two of video, two of audio.
        #expect(tracks.map(\.mediaType) == streams.map { $0["codec_type"] as? String == "video" ? .video : .audio })
        let sizes = try await tracks.filter { $0.mediaType == .video }.asyncMap { try await $0.load(.naturalSize) }
        #expect(sizes == [CGSize(width: 320, height: 240), CGSize(width: 160, height: 120)])
        // The variants number their tracks alike; the asset's IDs are each its own.
        #expect(tracks.map(\.trackID) == [1, 2, 3, 4])
        // The stream's timeline starts at zero, as Apple's players show it: ffprobe's start time
        // (1.4 s and more for MPEG-TS segments) is taken off every time.
        let start = try #require(Self.seconds(format["start_time"]))
        let length = try #require(Self.seconds(format["duration"]))
        #expect(asset.timelineOrigin == .zero)
        #expect(abs(duration.seconds - length) < 0.001)
        let trackStarts = try await tracks.asyncMap { try await $0.load(.timeRange).start.seconds }
        let probedStarts = try streams.map { try #require(Self.seconds($0["start_time"])) - start }
        for (ours, theirs) in zip(trackStarts, probedStarts) { #expect(abs(ours - theirs) < 0.001) }
    }

    @Test func readerRefusesAnHTTPLiveStreamAsApplesDoes() throws {
        let asset = AVURLAsset(url: try Self.server().url(try StreamingFixtures.hls(segmentType: "mpegts")))
        #expect {
            _ = try AVAssetReader(asset: asset)
        } throws: { ($0 as? AVError)?.code == .operationNotSupportedForAsset }
    }

    @Test func userAgentAndHeaderFieldsGoWithEveryRequest() async throws {
        let server = try Self.server()
        let hls = try StreamingFixtures.hls(segmentType: "fmp4")
        // Without the header field the server refuses: HTTP 401 under the AVError.
        let refused = AVURLAsset(url: server.url("auth/secret/" + hls))
        let error = try await #require(throws: AVError.self) { try await refused.load(.duration) }
        #expect(error.code == .contentIsUnavailable)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == "CoreMediaErrorDomain" && underlying.code == -12937)
        // With it, the playlist, the variants' playlists and the segments are all fetched.
        let allowed = AVURLAsset(url: server.url("auth/secret/" + hls), options: [AVURLAssetHTTPHeaderFieldsKey: ["Authorization": "Bearer secret"]])
        #expect(abs(try await allowed.load(.duration).seconds - 6) < 0.001)
        let agent = AVURLAsset(url: server.url("agent/OpenAVTest/" + (try StreamingFixtures.progressive())),
                               options: [AVURLAssetHTTPUserAgentKey: "OpenAVTest"])
        #expect(try await agent.load(.tracks).count == 2)
        let wrongAgent = AVURLAsset(url: server.url("agent/OpenAVTest/" + (try StreamingFixtures.progressive())))
        let forbidden = try await #require(throws: AVError.self) { try await wrongAgent.load(.tracks) }
        #expect((forbidden.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == -12660)
    }
}

extension Array {
    /// The results of an async transform of each element, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
