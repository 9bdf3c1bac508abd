import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// A server that is missing, refuses, stalls or hangs up: a clear error within the timeout,
/// never a hang. They time what they wait for: the test script runs them in its real-time
/// phase, one at a time.
@Suite(.timeLimit(.minutes(10))) struct HTTPFaultTests {
    static func server() throws -> MediaHTTPServer { try StreamingFixtures.server.get() }
    /// A short timeout, so that a stall fails quickly.
    static var options: [String: Any] { [AVURLAssetHTTPTimeoutIntervalKey: 1.0] }

    /// The cause under an `AVError`.
    static func underlying(_ error: AVError) -> NSError? { error.userInfo[NSUnderlyingErrorKey] as? NSError }

    /// The error loading `url` gives, and how long it took.
    static func loadingError(_ url: URL) async throws -> (AVError, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let asset = AVURLAsset(url: url, options: options)
        let error = try await #require(throws: AVError.self) { try await asset.load(.duration, .tracks) }
        return (error, clock.now - start)
    }

    /// Reads every sample of the file's video track; the reader at the end.
    static func readToTheEnd(_ url: URL) async throws -> (AVAssetReader, samples: Int) {
        let asset = AVURLAsset(url: url, options: options)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .video).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        var samples = 0
        while output.copyNextSampleBuffer() != nil { samples += 1 }
        return (reader, samples)
    }

    @Test func missingFileIsContentUnavailableWithHTTP404Underneath() async throws {
        let (error, _) = try await Self.loadingError(try Self.server().url("no-such-file.mp4"))
        #expect(error.code == .contentIsUnavailable)
        #expect(Self.underlying(error)?.domain == "CoreMediaErrorDomain" && Self.underlying(error)?.code == -12938)
    }

    @Test func refusedConnectionIsCannotConnectToHostUnderneath() async throws {
        // Port 1 on loopback: nothing listens there.
        let (error, took) = try await Self.loadingError(URL(string: "http://127.0.0.1:1/movie.mp4")!)
        #expect(error.code == .contentIsUnavailable)
        #expect(Self.underlying(error)?.domain == NSURLErrorDomain && Self.underlying(error)?.code == URLError.cannotConnectToHost.rawValue)
        #expect(took < .seconds(5))
    }

    @Test func serverThatStallsWhileLoadingTimesOut() async throws {
        let (error, took) = try await Self.loadingError(try Self.server().url("stall/" + (try StreamingFixtures.progressive())))
        #expect(error.code == .contentIsUnavailable)
        #expect(Self.underlying(error)?.code == URLError.timedOut.rawValue)
        // The 1 s timeout, for each of FFmpeg's few requests; not FFmpeg's default of none.
        #expect(took < .seconds(10))
    }

    @Test func serverThatStallsWhileReadingFailsTheReader() async throws {
        let (reader, samples) = try await Self.readToTheEnd(try Self.server().url("stall/" + (try StreamingFixtures.progressive(indexFirst: true))))
        #expect(reader.status == .failed)
        #expect(samples < 180)
        let error = try #require(reader.error as? AVError)
        #expect(error.code == .noLongerPlayable)
        #expect(Self.underlying(error)?.code == URLError.timedOut.rawValue)
    }

    /// MP4 and MPEG-TS files both fail when the server hangs up mid-file.
    @Test(arguments: ["mp4", "ts"])
    func serverThatHangsUpWhileReadingFailsTheReader(container: String) async throws {
        let file = container == "ts" ? try StreamingFixtures.transportStream() : try StreamingFixtures.progressive(indexFirst: true)
        let (reader, samples) = try await Self.readToTheEnd(try Self.server().url("cut/" + file))
        #expect(reader.status == .failed)
        #expect(samples < 180)
        let error = try #require(reader.error as? AVError)
        #expect(error.code == .noLongerPlayable)
        #expect(Self.underlying(error)?.code == URLError.networkConnectionLost.rawValue)
    }

    @Test func cancelReadingEndsAReadWaitingForAStalledServer() async throws {
        let url = try Self.server().url("stall/" + (try StreamingFixtures.progressive(indexFirst: true)))
        // The default timeout (30 s): only cancelling can end the wait quickly.
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .video).first), outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let clock = ContinuousClock()
        let (firstSample, gotOne) = AsyncStream<Void>.makeStream()
        let reading = Task.detached {
            while output.copyNextSampleBuffer() != nil { gotOne.yield() }
            gotOne.finish()
        }
        // The server sent half the file and waits (it stalled the connection loading opened,
        // which the reader goes on with); the reader has started and goes on until it waits too.
        // Cancelling ends it, whether it waits already or not yet.
        for await _ in firstSample { break }
        #expect(try Self.server().stalledRequests() >= 1)
        let cancelled = clock.now
        reader.cancelReading()
        await reading.value
        // Not the 30 s the read would wait for the server.
        #expect(clock.now - cancelled < .seconds(5))
        #expect(reader.status == .cancelled)
    }

    @Test func playlistThatNeverEndsIsALiveStreamOfIndefiniteDuration() async throws {
        let url = try Self.server().url("live/" + (try StreamingFixtures.hls(segmentType: "mpegts")).replacingOccurrences(of: "master", with: "v0"))
        let asset = AVURLAsset(url: url, options: Self.options)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(duration.isIndefinite)
        #expect(tracks.count == 2)
        #expect(try await tracks[0].load(.timeRange).duration.isIndefinite)
    }
}
