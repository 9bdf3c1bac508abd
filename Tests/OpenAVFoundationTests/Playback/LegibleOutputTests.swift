import Foundation
@testable import OpenAVFoundation
import Testing
import TestSupport

extension PlaybackTests {
    /// What a legible output's delegate is told, on a serial queue.
    final class LegibleListener: NSObject, AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
        struct Told { var strings: [NSAttributedString], native: [Any], itemTime: CMTime, toldAt: CMTime }
        enum Event { case flushed, told(Told) }
        let events = ResultList<Event>()
        let output: AVPlayerItemLegibleOutput
        let queue = DispatchQueue(label: "legible listener")

        init(_ output: AVPlayerItemLegibleOutput) {
            self.output = output
            super.init()
            output.setDelegate(self, queue: queue)
        }

        func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                           nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime) {
            events.add(.told(Told(strings: strings, native: nativeSamples, itemTime: itemTime,
                                  toldAt: output.itemTime(forHostTime: CACurrentMediaTime()))))
        }

        func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) { events.add(.flushed) }

        /// What was told since the last flush.
        var sinceFlush: [Told] {
            var result: [Told] = []
            for event in events.values {
                switch event {
                case .flushed: result = []
                case .told(let told): result.append(told)
                }
            }
            return result
        }
    }

    /// A movie's subtitles (SubRip in Matroska, 3GPP text in MP4) reach a legible output's
    /// delegate as the item plays the chosen option: each cue's text at its start, with the
    /// italic run the cue marks, and nothing at its end; an output asking for 3GPP text natively
    /// gets the samples instead.
    @Test(arguments: [("cues.mkv", "srt"), ("cues.mp4", "mov_text")])
    func theLegibleOutputTellsEachCueWhenPlaybackReachesIt(_ movie: (String, String)) async throws {
        let url = try SubtitleReadingTests.movie(movie.0, codec: movie.1)
        let item = AVPlayerItem(url: url)
        let strings = LegibleListener(AVPlayerItemLegibleOutput())
        let native = LegibleListener(AVPlayerItemLegibleOutput(mediaSubtypesForNativeRepresentation: [NSNumber(value: kCMTextFormatType_3GText)]))
        item.add(strings.output)
        item.add(native.output)
        let group = try #require(try await item.asset.loadMediaSelectionGroup(for: .legible))
        item.select(group.options.first, in: group)
        let player = AVPlayer(playerItem: item)
        let ended = NotificationCounter(AVPlayerItem.didPlayToEndTimeNotification, object: item)
        player.play()
        await ended.wait(seconds: 20)
        #expect(ended.posted == 1)
        strings.queue.sync {}
        native.queue.sync {}

        // The oracle: the cues written, at ffprobe's times of the file's packets (MP4 stores an
        // empty sample before the first cue, which is told as no text).
        let told = strings.sinceFlush
        let expected: [(String, Double)] = (movie.1 == "mov_text" ? [("", 0)] : []) + [("Hello", 0.5), ("", 1.5), ("World two", 2.0), ("", 3.25)]
        #expect(told.map { $0.strings.map(\.string).joined() } == expected.map(\.0), "\(movie.0)")
        #expect(told.map(\.itemTime.seconds) == expected.map(\.1), "\(movie.0)")
        #expect(told.allSatisfy { $0.native.isEmpty })
        for entry in told {
            let late = (entry.toldAt - entry.itemTime).seconds
            #expect(late >= -0.005 && late < 0.1, "\(movie.0): cue at \(entry.itemTime.seconds) s told \(late) s late")
        }
        // "two" is italic, "World " is not.
        if let world = told.first(where: { $0.strings.first?.string == "World two" })?.strings.first {
            let italic = NSAttributedString.Key(kCMTextMarkupAttribute_ItalicStyle)
            #expect(world.attribute(italic, at: 0, effectiveRange: nil) as? Bool == false)
            #expect(world.attribute(italic, at: 6, effectiveRange: nil) as? Bool == true)
        }
        // Natively: the samples themselves, no strings (and the clears as empty calls).
        let nativeTold = native.sinceFlush
        #expect(nativeTold.allSatisfy { $0.strings.isEmpty })
        let samples = nativeTold.flatMap(\.native).compactMap { $0 as? CMSampleBuffer }
        #expect(samples.filter { $0.totalSampleSize > 2 }.map(\.presentationTimeStamp.seconds) == [0.5, 2.0], "\(movie.0)")
    }
}
