import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Assets whose bytes come from an `AVAssetResourceLoaderDelegate` (a URL of the app's own
/// scheme; the delegate serves a file from memory): loading, reading, images and export give
/// what ffprobe and ffmpeg find in the file itself; a delegate's failures, a stalled delegate and
/// cancellations behave as Apple's loader's.
@Suite(.timeLimit(.minutes(10))) struct AVAssetResourceLoaderTests {
    /// The served file: 6 s of H.264 and AAC, its index at the end (read from two places).
    static func file() throws -> URL { StreamingFixtures.folder.appendingPathComponent(try StreamingFixtures.progressive()) }

    /// A larger file (about 4 MB, index first, with sound, which a player reads without a
    /// display) for reads that go past the first requests.
    static func largeFile() throws -> URL {
        try Fixtures.make("resource-loader-large.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=8",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=8",
            "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "4M", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-movflags", "+faststart",
        ])
    }

    /// An asset of the app's own scheme served by a delegate behaving as `behaviour`.
    static func asset(_ file: URL, _ behaviour: MemoryResourceDelegate.Behaviour,
                      options: [String: Any]? = nil) throws -> (AVURLAsset, MemoryResourceDelegate) {
        let delegate = try MemoryResourceDelegate(file: file, behaviour: behaviour)
        let asset = AVURLAsset(url: try #require(URL(string: "app-cache://media/\(file.lastPathComponent)")), options: options)
        asset.resourceLoader.setDelegate(delegate, queue: delegate.queue)
        return (asset, delegate)
    }

    /// ffprobe's packets of a stream of a file ("pts,size" each).
    static func probedPackets(_ url: URL, stream: String) throws -> [String] {
        String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts,size",
                                                      "-of", "csv=p=0", url.path]), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// The video packets (as "pts,size" in the track's timescale) and the number of audio
    /// packets of a passthrough reading of `asset`.
    static func readPackets(_ asset: AVURLAsset) async throws -> (video: [String], audio: Int) {
        let reader = try AVAssetReader(asset: asset)
        let videoTrack = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let timescale = try await videoTrack.load(.naturalTimeScale)
        let video = AVAssetReaderTrackOutput(track: videoTrack, outputSettings: nil)
        let audio = AVAssetReaderTrackOutput(track: try #require(try await asset.loadTracks(withMediaType: .audio).first), outputSettings: nil)
        reader.add(video)
        reader.add(audio)
        #expect(reader.startReading())
        var packets: [String] = []
        var audioPackets = 0
        while true {
            let picture = video.copyNextSampleBuffer()
            if let picture {
                packets.append("\(picture.presentationTimeStamp.convertScale(timescale, method: .roundHalfAwayFromZero).value),\(picture.totalSampleSize)")
            }
            let sound = audio.copyNextSampleBuffer()
            if let sound { audioPackets += sound.numSamples }
            if picture == nil && sound == nil { break }
        }
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        return (packets, audioPackets)
    }

    @Test(arguments: [MemoryResourceDelegate.Behaviour.byteRanges(piece: 4096), .byteRanges(piece: 1 << 20), .wholeResource, .noInformation])
    func anAssetLoadsAndReadsEveryPacketAsFFprobeReadsTheFile(behaviour: MemoryResourceDelegate.Behaviour) async throws {
        let file = try Self.file()
        let (asset, delegate) = try Self.asset(file, behaviour)
        let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
        let local = AVURLAsset(url: file)
        #expect(playable)
        #expect(duration == (try await local.load(.duration)))
        #expect(tracks.map(\.mediaType) == [.video, .audio])
        let (video, audio) = try await Self.readPackets(asset)
        #expect(video == (try Self.probedPackets(file, stream: "v:0")))
        #expect(audio == (try Self.probedPackets(file, stream: "a:0")).count)
        // Apple's first request: the content information with the first two bytes.
        let requests = delegate.requests
        #expect(requests.first == .init(offset: 0, length: 2, toEnd: false, information: true))
        switch behaviour {
        case .byteRanges:
            // Then ranges of at most a megabyte, without content information.
            #expect(requests.dropFirst().allSatisfy { !$0.information && !$0.toEnd && $0.length <= 1 << 20 && $0.length > 0 }, "\(requests)")
        default:
            // Then, for each reader of the asset (loading, and the reader), the whole resource once.
            #expect(requests.dropFirst().allSatisfy { $0.offset == 0 && $0.toEnd && !$0.information }, "\(requests)")
        }
    }

    @Test func anImageIsTheFilesImage() async throws {
        let file = try Self.file()
        let (asset, delegate) = try Self.asset(file, .byteRanges(piece: 64 * 1024))
        // The loader holds its delegate weakly, as Apple's does.
        defer { withExtendedLifetime(delegate) {} }
        let served = AVAssetImageGenerator(asset: asset)
        let local = AVAssetImageGenerator(asset: AVURLAsset(url: file))
        for generator in [served, local] {
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
        }
        let time = CMTime(value: 101, timescale: 30)
        let (image, actual) = try await served.image(at: time)
        let (expected, _) = try await local.image(at: time)
        #expect(actual == time)
        #expect(image.width == 320 && image.height == 240)
        #expect(image.dataProvider?.data == expected.dataProvider?.data)
    }

    @Test func aPassthroughExportHoldsTheFilesPackets() async throws {
        let file = try Self.file()
        let (asset, delegate) = try Self.asset(file, .byteRanges(piece: 256 * 1024))
        defer { withExtendedLifetime(delegate) {} }
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough))
        let url = Fixtures.folder.appendingPathComponent("resource-loader-export-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        session.outputURL = url
        session.outputFileType = .mp4
        await session.export()
        #expect(session.status == .completed, "\(String(describing: session.error))")
        #expect(try Self.probedPackets(url, stream: "v:0").map { $0.split(separator: ",")[1] }
            == (try Self.probedPackets(file, stream: "v:0")).map { $0.split(separator: ",")[1] })
        #expect(try Self.probedPackets(url, stream: "a:0").count == (try Self.probedPackets(file, stream: "a:0")).count)
    }

    @Test func aDelegatesErrorFailsTheLoadWithItUnderneath() async throws {
        let (asset, delegate) = try Self.asset(try Self.file(), .fails)
        defer { withExtendedLifetime(delegate) {} }
        let error = try await #require(throws: AVError.self) { try await asset.load(.duration) }
        #expect(error.code == .unknown)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == MemoryResourceDelegate.failure.domain && underlying.code == 42)
    }

    @Test func aDeclinedRequestOrNoDelegateFailsTheLoad() async throws {
        let (declined, delegate) = try Self.asset(try Self.file(), .declines)
        let error = try await #require(throws: AVError.self) { try await declined.load(.duration) }
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.domain == NSURLErrorDomain && underlying?.code == URLError.unsupportedURL.rawValue, "\(error)")
        #expect(delegate.requests.count == 1)
        let unserved = AVURLAsset(url: try #require(URL(string: "app-cache://media/none.mp4")))
        await #expect(throws: AVError.self) { try await unserved.load(.duration) }
    }

    @Test func aDelegateThatNeverAnswersTimesOutAndIsToldOfTheCancellation() async throws {
        let (asset, delegate) = try Self.asset(try Self.file(), .neverAnswers, options: [AVURLAssetHTTPTimeoutIntervalKey: 1.0])
        let started = ContinuousClock.now
        let error = try await #require(throws: AVError.self) { try await asset.load(.duration) }
        #expect(ContinuousClock.now - started >= .seconds(1))
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(error.code == .contentIsUnavailable)
        #expect(underlying?.domain == NSURLErrorDomain && underlying?.code == URLError.timedOut.rawValue, "\(error)")
        #expect(await waitUntil(timeout: 30) { done in delegate.whenCancelled(done); return nil }, "the delegate was told of no cancellation")
        #expect(delegate.cancellations == [.init(offset: 0, length: 2, toEnd: false, information: true)])
    }

    @Test func cancellingAReaderMidLoadCancelsItsRequest() async throws {
        let file = try Self.largeFile()
        let threshold: Int64 = 2 << 20
        let (asset, delegate) = try Self.asset(file, .stallsFrom(offset: threshold))
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let reading = Task.detached {
            var count = 0
            while output.copyNextSampleBuffer() != nil { count += 1 }
            return count
        }
        #expect(await waitUntil(timeout: 60) { done in delegate.whenStalled(done); return nil }, "no read reached the stalled range")
        reader.cancelReading()
        #expect(await waitUntil(timeout: 30) { done in delegate.whenCancelled(done); return nil }, "the delegate was told of no cancellation")
        let read = await reading.value
        #expect(read > 0 && reader.status == .cancelled)
        // Every request still outstanding is cancelled, once: the stalled one, and on a busy
        // machine the one before it too if its answer was still coming.
        let cancelled = delegate.cancellations
        #expect(cancelled.contains { $0.offset >= threshold }, "the stalled request was not cancelled: \(cancelled)")
        #expect(Set(cancelled.map(\.offset)).count == cancelled.count, "a request was cancelled twice: \(cancelled)")
    }
}
