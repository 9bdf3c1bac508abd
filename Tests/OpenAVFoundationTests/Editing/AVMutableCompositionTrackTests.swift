import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// The edits of a composition track: every insert, removal and scale checked against the
/// mapping arithmetic done by hand, in exact times.
@Suite(.timeLimit(.minutes(10))) struct AVMutableCompositionTrackTests {
    /// A 3 s 25 fps clip.
    static func clip() throws -> URL {
        try Fixtures.make("edit-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "3",
                                            "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    static func t(_ value: Int64, _ timescale: Int32 = 4) -> CMTime { CMTime(value: value, timescale: timescale) }
    static func r(_ start: CMTime, _ end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }

    /// The segments as (source, target) pairs; an empty segment's source is nil.
    static func layout(_ track: AVAssetTrack) -> [(CMTimeRange?, CMTimeRange)] {
        track.segments.map { ($0.isEmpty ? nil : $0.timeMapping.source, $0.timeMapping.target) }
    }

    static func expectLayout(_ track: AVAssetTrack, _ expected: [(CMTimeRange?, CMTimeRange)], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = layout(track)
        #expect(actual.count == expected.count, "\(actual)", sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(a.0 == e.0 && a.1 == e.1, "got \(String(describing: a.0)) → \(a.1), expected \(String(describing: e.0)) → \(e.1)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func insertsSplitsRemovesAndScalesExactly() throws {
        let asset = AVURLAsset(url: try Self.clip())
        let source = try #require(asset.tracks(withMediaType: .video).first)
        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        #expect(track.trackID == 1)

        // A 0.5–1.5, then B (the clip's 0–1) after it.
        try track.insertTimeRange(Self.r(Self.t(2), Self.t(6)), of: source, at: .zero)
        try track.insertTimeRange(Self.r(.zero, Self.t(4)), of: source, at: Self.t(4))
        Self.expectLayout(track, [(Self.r(Self.t(2), Self.t(6)), Self.r(.zero, Self.t(4))),
                                  (Self.r(.zero, Self.t(4)), Self.r(Self.t(4), Self.t(8)))])

        // Inserting inside the first segment splits it at the mapped source time.
        try track.insertTimeRange(Self.r(.zero, Self.t(2)), of: source, at: Self.t(2))
        Self.expectLayout(track, [(Self.r(Self.t(2), Self.t(4)), Self.r(.zero, Self.t(2))),
                                  (Self.r(.zero, Self.t(2)), Self.r(Self.t(2), Self.t(4))),
                                  (Self.r(Self.t(4), Self.t(6)), Self.r(Self.t(4), Self.t(6))),
                                  (Self.r(.zero, Self.t(4)), Self.r(Self.t(6), Self.t(10)))])
        #expect(composition.duration == CMTime(value: 10, timescale: 4))

        // Removing 0.25–0.75 cuts two segments and pulls the rest in.
        track.removeTimeRange(Self.r(Self.t(1), Self.t(3)))
        Self.expectLayout(track, [(Self.r(Self.t(2), Self.t(3)), Self.r(.zero, Self.t(1))),
                                  (Self.r(Self.t(1), Self.t(2)), Self.r(Self.t(1), Self.t(2))),
                                  (Self.r(Self.t(4), Self.t(6)), Self.r(Self.t(2), Self.t(4))),
                                  (Self.r(.zero, Self.t(4)), Self.r(Self.t(4), Self.t(8)))])

        // Scaling half of the last segment to three times its length.
        track.scaleTimeRange(Self.r(Self.t(4), Self.t(6)), toDuration: Self.t(6))
        Self.expectLayout(track, [(Self.r(Self.t(2), Self.t(3)), Self.r(.zero, Self.t(1))),
                                  (Self.r(Self.t(1), Self.t(2)), Self.r(Self.t(1), Self.t(2))),
                                  (Self.r(Self.t(4), Self.t(6)), Self.r(Self.t(2), Self.t(4))),
                                  (Self.r(.zero, Self.t(2)), Self.r(Self.t(4), Self.t(10))),
                                  (Self.r(Self.t(2), Self.t(4)), Self.r(Self.t(10), Self.t(12)))])

        // An empty span, and an insertion past the end reached with another.
        track.insertEmptyTimeRange(Self.r(Self.t(1), Self.t(2)))
        try track.insertTimeRange(Self.r(.zero, Self.t(1)), of: source, at: Self.t(16))
        Self.expectLayout(track, [(Self.r(Self.t(2), Self.t(3)), Self.r(.zero, Self.t(1))),
                                  (nil, Self.r(Self.t(1), Self.t(2))),
                                  (Self.r(Self.t(1), Self.t(2)), Self.r(Self.t(2), Self.t(3))),
                                  (Self.r(Self.t(4), Self.t(6)), Self.r(Self.t(3), Self.t(5))),
                                  (Self.r(.zero, Self.t(2)), Self.r(Self.t(5), Self.t(11))),
                                  (Self.r(Self.t(2), Self.t(4)), Self.r(Self.t(11), Self.t(13))),
                                  (nil, Self.r(Self.t(13), Self.t(16))),
                                  (Self.r(.zero, Self.t(1)), Self.r(Self.t(16), Self.t(17)))])
        #expect(track.timeRange == Self.r(.zero, Self.t(17)))
        let segments = try #require(track.segments as? [AVCompositionTrackSegment])
        #expect(segments[0].sourceURL == asset.url && segments[0].sourceTrackID == source.trackID)
        #expect(segments[1].sourceURL == nil && segments[1].isEmpty)
        try track.validateSegments(segments)
        #expect(track.segment(forTrackTime: Self.t(14))?.isEmpty == true)
    }

    @Test func scalingSplitsAtTheMappedSourceTime() throws {
        let source = try #require(AVURLAsset(url: try Self.clip()).tracks(withMediaType: .video).first)
        let track = try #require(AVMutableComposition().addMutableTrack(withMediaType: .video, preferredTrackID: 7))
        #expect(track.trackID == 7)
        try track.insertTimeRange(Self.r(.zero, Self.t(3, 1)), of: source, at: .zero)
        // The first second of three, slowed to three seconds; a cut a third of the way in.
        track.scaleTimeRange(Self.r(.zero, Self.t(1, 1)), toDuration: Self.t(3, 1))
        track.removeTimeRange(Self.r(.zero, Self.t(1, 1)))
        Self.expectLayout(track, [(Self.r(CMTime(value: 1, timescale: 3), Self.t(1, 1)), Self.r(.zero, Self.t(2, 1))),
                                  (Self.r(Self.t(1, 1), Self.t(3, 1)), Self.r(Self.t(2, 1), Self.t(4, 1)))])
    }

    @Test func badInsertionsThrowTheCompositionErrors() throws {
        let asset = AVURLAsset(url: try Self.clip())
        let source = try #require(asset.tracks(withMediaType: .video).first)
        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        func code(_ body: () throws -> Void) -> AVError.Code? {
            do { try body() } catch let error as AVError { return error.code } catch { return nil }
            return nil
        }
        #expect(code { try track.insertTimeRange(Self.r(Self.t(5, 1), Self.t(6, 1)), of: source, at: .zero) } == .invalidCompositionTrackSegmentSourceStartTime)
        #expect(code { try track.insertTimeRange(Self.r(Self.t(1, 1), Self.t(1, 1)), of: source, at: .zero) } == .invalidCompositionTrackSegmentSourceDuration)
        #expect(code { try track.insertTimeRange(CMTimeRange(start: .zero, duration: .positiveInfinity), of: source, at: .zero) }
                == .invalidCompositionTrackSegmentSourceDuration)
        let audio = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        #expect(code { try audio.insertTimeRange(Self.r(.zero, Self.t(1, 1)), of: source, at: .zero) } == .incompatibleAsset)
        #expect(track.segments.isEmpty && composition.duration == .zero)

        let gap = [AVCompositionTrackSegment(timeRange: Self.r(.zero, Self.t(1, 1))),
                   AVCompositionTrackSegment(url: asset.url, trackID: 1, sourceTimeRange: Self.r(.zero, Self.t(1, 1)),
                                             targetTimeRange: Self.r(Self.t(2, 1), Self.t(3, 1)))]
        #expect(code { try track.validateSegments(gap) } == .compositionTrackSegmentsNotContiguous)
        let noSourceDuration = [AVCompositionTrackSegment(url: asset.url, trackID: 1,
                                                          sourceTimeRange: CMTimeRange(start: .zero, duration: .invalid),
                                                          targetTimeRange: Self.r(.zero, Self.t(1, 1)))]
        #expect(code { try track.validateSegments(noSourceDuration) } == .invalidCompositionTrackSegmentSourceDuration)
        // An invalid source range makes an empty segment, which is valid.
        try track.validateSegments([AVCompositionTrackSegment(url: asset.url, trackID: 1, sourceTimeRange: .invalid,
                                                              targetTimeRange: Self.r(.zero, Self.t(1, 1)))])
    }

    @Test func insertingAnAssetFillsCompatibleTracksAndKeepsThemInStep() throws {
        let asset = AVURLAsset(url: try Fixtures.h264AAC())
        let composition = AVMutableComposition()
        let second = CMTime(value: 1, timescale: 1)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: second), of: asset, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: second, duration: second), of: asset, at: second)
        #expect(composition.tracks.count == 2)
        #expect(composition.tracks(withMediaType: .video).count == 1 && composition.tracks(withMediaType: .audio).count == 1)
        for track in composition.tracks {
            #expect(track.timeRange == CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1)))
            #expect(track.segments.count == 2)
            #expect(track.asset === composition)
        }
        let loaded = try awaitBlocking { try await composition.load(.duration) }
        #expect(loaded == CMTime(value: 2, timescale: 1))

        // Removing the first second everywhere; an immutable copy keeps what it copied.
        let snapshot = try #require(composition.copy() as? AVComposition)
        composition.removeTimeRange(CMTimeRange(start: .zero, duration: second))
        #expect(composition.duration == second)
        #expect(snapshot.duration == CMTime(value: 2, timescale: 1) && !(snapshot is AVMutableComposition))
        #expect(composition.mutableTrack(compatibleWith: asset.tracks(withMediaType: .audio)[0])?.mediaType == .audio)
    }

    /// Runs an async body from a synchronous test.
    func awaitBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<T, Error>?
        Task {
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome!.get()
    }
}
