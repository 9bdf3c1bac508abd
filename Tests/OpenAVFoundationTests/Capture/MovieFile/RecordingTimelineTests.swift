import Testing
@testable import OpenAVFoundation

/// A recording's per-sample decisions, on made-up samples: 30 fps video frames at 1/30 s steps
/// from 10 s, audio buffers of 10 ms, and the file times each one is written at.
@Suite(.timeLimit(.minutes(10))) struct RecordingTimelineTests {
    typealias Timeline = RecordingTimeline

    static func frame(_ n: Int, key: Bool = true, media: Bool = true, droppedBefore: Int = 0) -> Timeline.Sample {
        Timeline.Sample(isVideo: true, time: CMTime(value: 300 + Int64(n), timescale: 30), hasMedia: media,
                        isEntryPoint: media && key, droppedBefore: droppedBefore)
    }

    static func audio(_ n: Int) -> Timeline.Sample {
        Timeline.Sample(isVideo: false, time: CMTime(value: 1000 + Int64(n), timescale: 100), hasMedia: true,
                        isEntryPoint: true, droppedBefore: 0)
    }

    static func timeline(audio: Bool = true, stored: Bool = false, max: CMTime = .invalid) -> Timeline {
        Timeline(hasVideo: true, hasAudio: audio, storesCompressedVideo: stored, maxDuration: max,
                 entryPointWait: CMTime(value: 2, timescale: 1))
    }

    /// Writes (queues) a frame the timeline says to write; its file time, or nil.
    static func take(_ sample: Timeline.Sample, into timeline: inout Timeline) -> CMTime? {
        guard case .write(let time) = timeline.decide(sample).decision else { return nil }
        if sample.isVideo { timeline.queued() }
        return time
    }

    @Test func startsAtTheFirstFrameAndLeavesEarlierAudioOut() {
        var timeline = Self.timeline()
        #expect(timeline.decide(Self.audio(0)).decision == .leaveOut, "audio before the first frame")
        #expect(Self.take(Self.frame(0), into: &timeline) == .zero)
        #expect(Self.take(Self.audio(1), into: &timeline) == CMTime(value: 1, timescale: 100))
        #expect(Self.take(Self.frame(3), into: &timeline) == CMTime(value: 3, timescale: 30))
    }

    @Test func stoppingEndsAtTheNextFrameAndWaitsForTheAudioUpToIt() {
        var timeline = Self.timeline()
        _ = Self.take(Self.frame(0), into: &timeline)
        timeline.stopAtNextFrame(handingOver: false)
        #expect(timeline.decide(Self.frame(1)).decision == .passedEnd(.awaitingAudio))
        #expect(Self.take(Self.audio(3), into: &timeline) != nil, "audio before the end is still written")
        #expect(timeline.decide(Self.audio(4)).decision == .passedEnd(.complete), "audio from 10.04 s is past 10.033 s")
    }

    @Test func handingOverStoredFramesEndsAtTheNextKeyFrame() {
        var timeline = Self.timeline(audio: false, stored: true)
        _ = Self.take(Self.frame(0), into: &timeline)
        timeline.stopAtNextFrame(handingOver: true)
        #expect(Self.take(Self.frame(1, key: false), into: &timeline) != nil)
        #expect(timeline.decide(Self.frame(2, key: true)).decision == .passedEnd(.complete))
    }

    @Test func aPauseLeavesNoGapAndResumesAtAnEntryPoint() {
        var timeline = Self.timeline(audio: false, stored: true)
        _ = Self.take(Self.frame(0), into: &timeline)
        timeline.pause()
        #expect(timeline.isPaused)
        let paused = timeline.decide(Self.frame(1))
        #expect(paused.pauseChange == .paused && paused.decision == .leaveOut)
        timeline.resume()
        #expect(timeline.decide(Self.frame(5, key: false)).decision == .leaveOut, "a resume waits for a key frame")
        let resumed = timeline.decide(Self.frame(6))
        #expect(resumed.pauseChange == .resumed && resumed.decision == .write(fileTime: CMTime(value: 1, timescale: 30)))
        timeline.queued()
        #expect(!timeline.isPaused && timeline.droppedFrames == 0, "frames not taken while paused are not drops")
    }

    @Test func dropsCountBetweenWrittenFramesAndStoredFramesWaitForAKeyFrame() {
        var timeline = Self.timeline(audio: false, stored: true)
        _ = Self.take(Self.frame(0), into: &timeline)
        // Two frames lost by the camera before frame 3: stored frames wait for the next key frame.
        #expect(timeline.decide(Self.frame(3, key: false, droppedBefore: 2)).decision == .leaveOut)
        #expect(Self.take(Self.frame(4, key: true), into: &timeline) == CMTime(value: 4, timescale: 30))
        #expect(timeline.droppedFrames == 3, "two lost, one left out for want of a key frame")
        // A frame the writer's queue refused is missing too, and is counted once a later one is written.
        guard case .write = timeline.decide(Self.frame(5, key: false)).decision else { Issue.record("frame 5"); return }
        timeline.refused()
        #expect(timeline.decide(Self.frame(6, key: false)).decision == .leaveOut)
        #expect(Self.take(Self.frame(7, key: true), into: &timeline) != nil)
        #expect(timeline.droppedFrames == 5)
    }

    @Test func theMaximumDurationEndsTheFile() {
        var timeline = Self.timeline(max: CMTime(value: 1, timescale: 1))
        _ = Self.take(Self.frame(0), into: &timeline)
        #expect(Self.take(Self.frame(29), into: &timeline) != nil)
        #expect(timeline.decide(Self.frame(30)).decision == .reachedMaximumDuration)
    }

    @Test func withoutKeyFramesAnyFrameServesAfterTheWait() {
        var timeline = Self.timeline(audio: false, stored: true)
        let waited = (0..<61).map { timeline.decide(Self.frame($0, key: false)) }
        #expect(waited.dropLast().allSatisfy { $0.decision == .leaveOut && !$0.forcedEntryPoint })
        #expect(waited.last?.forcedEntryPoint == true && waited.last?.decision == .write(fileTime: .zero))
    }
}
