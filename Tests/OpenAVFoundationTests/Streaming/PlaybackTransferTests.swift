import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// What playing from the network costs the network: each playing item is read once (one
/// demuxer for its sound, its pictures and its metadata), so a file is fetched once and an HTTP
/// Live Stream's segments once each. Counted by the tests' HTTP server (its own, so that no
/// other test's requests are counted), against ffplay playing the same file from it. Real time:
/// the name puts it in the test script's real-time phase.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PlaybackTransferTests {
    /// A served folder of its own, with a 1 MB MP4 of 5 s (640x360 H.264 at 1.5 Mbit/s, AAC).
    static func servedClip() throws -> (server: MediaHTTPServer, url: URL, size: Int) {
        let clip = try Fixtures.make("transfer-1mb.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25",
            "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:sample_rate=48000",
            "-t", "5", "-c:v", "libx264", "-b:v", "1500k", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart",
        ])
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openav-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: clip, to: root.appendingPathComponent("clip.mp4"))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? Int)
        let server = try MediaHTTPServer(root: root)
        return (server, server.url("clip.mp4"), size)
    }

    @Test func aFilePlayedInAWindowIsFetchedOnceAndNoMoreThanFFplayFetchesIt() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let display = try DisplayLayerTests.server.get()
        let (server, url, size) = try Self.servedClip()
        defer { server.stop() }

        // As `openav play` does: the player, a window with its layer, play to the end.
        let item = AVPlayerItem(url: url)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        try #require(await item.knownStatus() == .readyToPlay)
        let window = try AVDisplayWindow(layer: AVPlayerLayer(player: player), title: "transfer test",
                                         size: CGSize(width: 320, height: 180), origin: .zero)
        player.play()
        await ended.wait(seconds: 15)
        window.close()
        #expect(ended.posted == 1)
        let ours = try server.transferred()

        // ffplay, the same file from the same server.
        let ffplay = Process()
        ffplay.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffplay.arguments = ["ffplay", "-v", "error", "-nodisp", "-autoexit", url.absoluteString]
        var environment = daemon.environment
        environment["DISPLAY"] = display.display
        ffplay.environment = environment
        ffplay.standardInput = FileHandle.nullDevice
        ffplay.standardOutput = FileHandle.nullDevice
        ffplay.standardError = FileHandle.nullDevice
        try ffplay.run()
        ffplay.waitUntilExit()
        #expect(ffplay.terminationStatus == 0)
        let total = try server.transferred()
        let theirs = (requests: total.requests - ours.requests, bytes: total.bytes - ours.bytes)

        #expect(Double(ours.bytes) <= 1.5 * Double(size), "playing a \(size)-byte file fetched \(ours.bytes) bytes in \(ours.requests) requests")
        #expect(ours.bytes <= theirs.bytes + size / 20, "we fetched \(ours.bytes) bytes, ffplay \(theirs.bytes)")
        #expect(ours.requests <= max(1, theirs.requests), "we made \(ours.requests) requests, ffplay \(theirs.requests)")
    }

    @Test func anHTTPLiveStreamsSegmentsAreFetchedOnceEach() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let master = try StreamingFixtures.hls(segmentType: "mpegts")
        let server = try MediaHTTPServer(root: StreamingFixtures.folder)
        defer { server.stop() }
        let item = AVPlayerItem(url: server.url(master))
        item.add(AVPlayerItemVideoOutput(pixelBufferAttributes: nil))
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = PlaybackTests.NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        player.play()
        await ended.wait(seconds: 15)
        #expect(ended.posted == 1)
        let paths = try server.transferred().paths
        let segments = paths.filter { $0.key.hasSuffix(".ts") }
        // The first variant's three segments played, each fetched once.
        #expect(segments.keys.filter { $0.contains("/v0_") }.count == 3, "\(paths)")
        #expect(segments.allSatisfy { $0.value == 1 }, "segments fetched more than once: \(paths)")
    }
}
