import Testing
import OpenCoreMedia
@testable import CaptureDevices

/// How V4L2 sequence numbers become drops: gaps count, as far as the frames' timestamps allow.
@Suite(.timeLimit(.minutes(10))) struct V4L2FrameSlotsTests {
    let frame = CMTime(value: 1, timescale: 30)

    @Test func consecutiveAndRepeatedSequenceNumbersAreOneSlot() {
        #expect(V4L2Stream.frameSlots(sequenceGap: 1, elapsed: frame, frameDuration: frame) == 1)
        #expect(V4L2Stream.frameSlots(sequenceGap: 0, elapsed: frame, frameDuration: frame) == 1)
        // A sequence number that goes back (a driver restarting its count) is the next slot.
        #expect(V4L2Stream.frameSlots(sequenceGap: 0 &- 5, elapsed: frame, frameDuration: frame) == 1)
    }

    @Test func aGapTheTimestampsAgreeWithCountsEveryDroppedFrame() {
        // Three frames lost: four frame durations between the two delivered.
        #expect(V4L2Stream.frameSlots(sequenceGap: 4, elapsed: CMTime(value: 4, timescale: 30), frameDuration: frame) == 4)
        // A late timestamp never adds drops the sequence numbers do not show.
        #expect(V4L2Stream.frameSlots(sequenceGap: 2, elapsed: CMTime(value: 9, timescale: 30), frameDuration: frame) == 2)
        // Without a previous time, the gap stands.
        #expect(V4L2Stream.frameSlots(sequenceGap: 7, elapsed: nil, frameDuration: frame) == 7)
    }

    @Test func aRenumberingWiderThanTheTimeAllowsCountsOnlyTheTime() {
        // v4l2loopback after a reader fell behind: 1,292 slots by number in two frame durations.
        #expect(V4L2Stream.frameSlots(sequenceGap: 1292, elapsed: CMTime(value: 2, timescale: 30), frameDuration: frame) == 2)
        // Jitter rounds to the nearest slot, never below one.
        #expect(V4L2Stream.frameSlots(sequenceGap: 50, elapsed: CMTime(value: 1, timescale: 1000), frameDuration: frame) == 1)
    }
}
