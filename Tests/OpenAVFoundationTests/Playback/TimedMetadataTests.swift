import Foundation
import CaptureDevices
@testable import OpenAVFoundation
import Testing
import TestSupport

/// Timed ID3 metadata in an MPEG transport stream, as HTTP Live Streaming carries it: a 6 s
/// clip with a tag at 0.5, 1.5, … 4.5 s, each holding a `TXXX`, a `TIT2` and a `PRIV` frame.
enum TimedID3Clip {
    static let times = [0.5, 1.5, 2.5, 3.5, 4.5]

    static func frames(_ index: Int) -> [TimedID3Stream.Frame] {
        [.userText(description: "cue", text: "number \(index)"), .text(id: "TIT2", text: "Title \(index) ✓"),
         .privateData(owner: "com.example.cue", data: [UInt8(index), 0xFF, 0x00, 0x7F])]
    }

    static func make() throws -> URL {
        let source = try Fixtures.make("timed-id3-source.ts", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "6", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
        ])
        let url = source.deletingLastPathComponent().appendingPathComponent("timed-id3-\(ProcessInfo.processInfo.processIdentifier).ts")
        try Fixtures.lock.withLock {
            if !FileManager.default.fileExists(atPath: url.path) {
                let tags = times.enumerated().map { (time: $0.element, tag: TimedID3Stream.tag(frames($0.offset))) }
                try TimedID3Stream.write(copying: source, tags: tags, to: url)
            }
        }
        return url
    }

    /// ffprobe's times of the data stream's packets, in seconds.
    static func probedTimes(_ url: URL) throws -> [Double] {
        let text = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "d", "-show_entries", "packet=pts_time",
                                                                 "-of", "csv=p=0", url.path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    /// Checks that `group` holds tag `index` as the ID3 items Apple gives.
    static func expectTag(_ group: AVTimedMetadataGroup, _ index: Int) {
        let items = group.items
        #expect(items.count == 3 && items.allSatisfy { $0.keySpace == .id3 && $0.time == group.timeRange.start })
        let user = items.first { $0.identifier == .id3MetadataUserText }
        #expect(user?.stringValue == "number \(index)" && user?.extraAttributes?[.info] as? String == "cue")
        #expect(user?.dataType == kCMMetadataBaseDataType_UTF8 as String)
        #expect(items.first { $0.identifier == .id3MetadataTitleDescription }?.stringValue == "Title \(index) ✓")
        let owned = items.first { $0.identifier == .id3MetadataPrivate }
        #expect(owned?.dataValue == Data([UInt8(index), 0xFF, 0x00, 0x7F]) && owned?.extraAttributes?[.info] as? String == "com.example.cue")
    }
}

/// Reading a timed ID3 track: the groups' times are ffprobe's packet times, their items the tags written.
@Suite(.timeLimit(.minutes(10))) struct TimedMetadataReadingTests {
    @Test func theReaderGivesEachID3SampleAsATimedMetadataGroup() async throws {
        let url = try TimedID3Clip.make()
        let probed = try TimedID3Clip.probedTimes(url)
        #expect(probed == TimedID3Clip.times, "ffprobe reads the tags at \(probed)")
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .metadata).first)
        let format = try #require(try await track.load(.formatDescriptions).first)
        #expect(CMFormatDescriptionGetMediaSubType(format) == kCMMetadataFormatType_ID3)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        let adaptor = AVAssetReaderOutputMetadataAdaptor(assetReaderTrackOutput: output)
        #expect(reader.startReading())
        var groups: [AVTimedMetadataGroup] = []
        while let group = adaptor.nextTimedMetadataGroup() { groups.append(group) }
        #expect(reader.status == .completed)
        #expect(groups.map(\.timeRange.start.seconds) == probed.map { ($0 * 90_000).rounded() / 90_000 })
        for (index, group) in groups.enumerated() { TimedID3Clip.expectTag(group, index) }
    }

    /// An ID3v2.3 tag with UTF-16 text and a comment, whole and with the five bytes FFmpeg 5.1's
    /// MPEG-TS reader drops: the same items.
    @Test func id3v23TagsWithUTF16TextAreRead() throws {
        let title: [UInt8] = [1, 0xFF, 0xFE] + Array("Grüße".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0, 0]
        let comment: [UInt8] = [0] + Array("eng".utf8) + [0] + Array("said".utf8)
        func frame(_ id: String, _ content: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [0, 0, 0, UInt8(content.count)] + [0, 0] + content
        }
        let body = frame("TIT2", title) + frame("COMM", comment) + [0, 0, 0, 0]  // and padding
        let whole = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(body.count)] + body
        for bytes in [whole, Array(whole.dropFirst(5))] {
            let items = try #require(ID3Tag(Data(bytes), time: .zero, duration: .zero)?.items)
            #expect(items.map(\.identifier) == [.id3MetadataTitleDescription, .id3MetadataComments])
            #expect(items.first?.stringValue == "Grüße" && items.last?.stringValue == "said" && items.last?.extendedLanguageTag == "eng")
        }
        #expect(ID3Tag(Data([1, 2, 3, 4, 5, 6]), time: .zero, duration: .zero) == nil)
    }

    @Test func aGroupIsMadeAndCopiedAsApplesIs() {
        let item = AVMutableMetadataItem()
        item.identifier = .id3MetadataTitleDescription
        item.value = "a" as NSString
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: .zero)
        let group = AVTimedMetadataGroup(items: [item], timeRange: range)
        let mutable = group.mutableCopy() as? AVMutableTimedMetadataGroup
        mutable?.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        mutable?.items = []
        #expect(group.timeRange == range && group.items.count == 1 && mutable?.items.isEmpty == true)
        #expect((group.copy() as? AVTimedMetadataGroup)?.items.first?.stringValue == "a")
        #expect(AVMutableTimedMetadataGroup().timeRange == .invalid)
    }
}

extension PlaybackTests {
    /// What a metadata output's delegate is told, on a serial queue.
    final class MetadataListener: NSObject, AVPlayerItemMetadataOutputPushDelegate, @unchecked Sendable {
        enum Event { case flushed, groups([AVTimedMetadataGroup], itemTime: CMTime, track: AVPlayerItemTrack?) }
        let events = ResultList<Event>()
        let output: AVPlayerItemMetadataOutput
        let queue = DispatchQueue(label: "metadata listener")

        init(_ output: AVPlayerItemMetadataOutput) {
            self.output = output
            super.init()
            output.setDelegate(self, queue: queue)
        }

        func metadataOutput(_ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
                            from track: AVPlayerItemTrack?) {
            events.add(.groups(groups, itemTime: output.itemTime(forHostTime: CACurrentMediaTime()), track: track))
        }

        func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { events.add(.flushed) }

        /// The groups told of since the last flush, with the item time when each was told.
        var sinceFlush: [(group: AVTimedMetadataGroup, told: CMTime, track: AVPlayerItemTrack?)] {
            var result: [(AVTimedMetadataGroup, CMTime, AVPlayerItemTrack?)] = []
            for event in events.values {
                switch event {
                case .flushed: result = []
                case .groups(let groups, let time, let track): result += groups.map { ($0, time, track) }
                }
            }
            return result
        }
    }

    /// An item's timed ID3 tags reach the delegate once each, when playback reaches them (or
    /// `advanceIntervalForDelegateInvocation` before); after a seek back, a flush, then the
    /// tags from there on again; an output asking for one identifier gets only those items.
    @Test func theMetadataOutputTellsEachTagWhenPlaybackReachesIt() async throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let url = try TimedID3Clip.make()
        let item = AVPlayerItem(url: url)
        let onTime = MetadataListener(AVPlayerItemMetadataOutput(identifiers: nil))
        let early = MetadataListener(AVPlayerItemMetadataOutput(identifiers: [AVMetadataIdentifier.id3MetadataUserText.rawValue]))
        early.output.advanceIntervalForDelegateInvocation = 0.5
        #expect(early.output.advanceIntervalForDelegateInvocation == 0.5 && onTime.output.advanceIntervalForDelegateInvocation == 0)
        item.add(onTime.output)
        item.add(early.output)
        let player = PulseAudioDiscovery.$server.withValue(daemon.server) { AVPlayer(playerItem: item) }
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        player.play()
        // Three tags into the first play, back to 1 s.
        #expect(await onTime.events.wait(timeout: 10) { _ in onTime.sinceFlush.count >= 3 }, "three tags within 10 s")
        let firstRun = onTime.sinceFlush.map { $0.group.timeRange.start.seconds }
        #expect(firstRun.starts(with: [0.5, 1.5, 2.5]), "\(firstRun)")
        #expect(await player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        await ended.wait(seconds: 15)
        #expect(ended.posted == 1)
        onTime.queue.sync {}
        early.queue.sync {}

        // After the seek: a flush, then every tag from 1 s on, once each, in order.
        #expect(onTime.events.values.contains { if case .flushed = $0 { true } else { false } })
        let told = onTime.sinceFlush
        #expect(told.map { $0.group.timeRange.start.seconds } == [1.5, 2.5, 3.5, 4.5])
        let metadataTrack = item.tracks.first { $0.assetTrack?.mediaType == .metadata }
        #expect(metadataTrack != nil && told.allSatisfy { $0.track === metadataTrack })
        for entry in told {
            TimedID3Clip.expectTag(entry.group, TimedID3Clip.times.firstIndex(of: entry.group.timeRange.start.seconds) ?? -1)
            // Told when the item's time reaches the tag: not before, and within a few looks at the clock.
            let late = (entry.told - entry.group.timeRange.start).seconds
            #expect(late >= -0.005 && late < 0.1, "tag at \(entry.group.timeRange.start.seconds) s told \(late) s late")
        }
        // The early output: only the TXXX items, half a second ahead.
        let toldEarly = early.sinceFlush
        #expect(toldEarly.map { $0.group.timeRange.start.seconds } == [1.5, 2.5, 3.5, 4.5])
        for entry in toldEarly {
            #expect(entry.group.items.map(\.identifier) == [.id3MetadataUserText])
            let ahead = (entry.group.timeRange.start - entry.told).seconds
            #expect(ahead > 0.4 && ahead <= 0.505, "tag at \(entry.group.timeRange.start.seconds) s told \(ahead) s ahead")
        }
    }
}
