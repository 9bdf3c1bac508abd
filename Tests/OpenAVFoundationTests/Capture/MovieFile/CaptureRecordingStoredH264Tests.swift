import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import MediaEngine
import TestSupport

/// A recording that stores a camera's H.264 frames as they come (`CaptureRecording` with
/// `storesCompressedVideo`, what `AVCaptureMovieFileOutput` does with empty output settings),
/// fed the frames of an ffmpeg-made clip as a camera delivers them, with losses, pauses and
/// hand-overs placed exactly (the VM's live camera cannot place them). ffmpeg's decode of each
/// file says which clip frames it holds.
@Suite(.timeLimit(.minutes(10))) struct CaptureRecordingStoredH264Tests {
    /// A camera's clip: 120 frames, a key frame every 15; and its frames as samples, one maker
    /// for the whole stream as a camera's.
    static let stream = Result { () throws -> (DecodedClip, [CMSampleBuffer]) in
        let clip = try DecodedClip(Fixtures.folder.appendingPathComponent("stored-\(UUID().uuidString).h264"),
                                   frameCount: 120, keyFrameInterval: 15, format: "h264")
        return (clip, try samples(of: clip))
    }

    /// A clip with one key frame, at its start.
    static let keyFrameOnce = Result { () throws -> (DecodedClip, [CMSampleBuffer]) in
        let clip = try DecodedClip(Fixtures.folder.appendingPathComponent("one-key-\(UUID().uuidString).h264"),
                                   frameCount: 120, keyFrameInterval: 1000, format: "h264")
        return (clip, try samples(of: clip))
    }

    /// The clip's access units as 'avc1' samples.
    static func samples(of clip: DecodedClip) throws -> [CMSampleBuffer] {
        let bytes = try Data(contentsOf: clip.url)
        let maker = H264SampleMaker(width: DecodedClip.width, height: DecodedClip.height)
        return try DecodedClip.accessUnits(of: clip.url).map { unit in
            try #require(bytes[unit].withUnsafeBytes { maker.sample(of: $0, presentationTime: .zero, duration: .zero) })
        }
    }

    /// The camera's sample of clip frame `index`: at host time 100 s + index/30, the frames lost
    /// since `previous` reported with it.
    static func sample(_ index: Int, after previous: Int?, of samples: [CMSampleBuffer]) -> CaptureSample {
        let frameDuration = CMTime(value: 1, timescale: 30)
        let lost = previous.map { index - $0 - 1 } ?? 0
        return CaptureSample(payload: .compressedVideo(samples[index], decoded: nil),
                             presentationTime: CMTime(value: 3000 + Int64(index), timescale: 30),
                             duration: frameDuration, sequenceNumber: UInt64(index),
                             drops: lost > 0 ? [CaptureDropRun(.late, count: lost)] : [])
    }

    /// A recording storing the camera's frames, to a new file.
    static func recording(_ name: String, events: RecordingEvents) throws -> CaptureRecording {
        var plan = CaptureRecording.Plan(video: nil, audio: nil, options: Muxer.Options(), maxDuration: .invalid,
                                         maxFileSize: 0, minFreeDiskSpace: 0)
        plan.storesCompressedVideo = true
        return try CaptureRecording(url: CaptureSessionTests.movieURL(name), plan: plan, connections: [],
                                    output: AVCaptureMovieFileOutput(), delegate: events)
    }

    /// Feeds clip frames `indices` (in order; an index left out is a frame lost) to
    /// `recordings`, calling `control` before each frame; then waits for every recording to finish.
    static func feed(_ indices: [Int], of samples: [CMSampleBuffer], to recordings: () -> [CaptureRecording],
                     events: RecordingEvents, control: (Int) throws -> Void) throws {
        var previous: Int?
        for index in indices {
            try control(index)
            let sample = Self.sample(index, after: previous, of: samples)
            for recording in recordings() {
                recording.receive(sample)
                recording.waitUntilWritten()  // as a camera paces them: none dropped for a full queue
            }
            previous = index
        }
        for recording in recordings() {
            let error = try events.finishError(of: recording.url)
            #expect(error == nil, "\(recording.url.lastPathComponent): \(String(describing: error))")
        }
    }

    @Test func startsAtAKeyFrameAndGoesOnAtTheNextAfterALoss() throws {
        let (clip, samples) = try Self.stream.get()
        let events = RecordingEvents()
        let recording = try Self.recording("stored-loss.mov", events: events)
        // Joined at frame 5; frames 40 to 42 lost; asked to stop before frame 80.
        try Self.feed(Array(5..<40) + Array(43...80), of: samples, to: { [recording] }, events: events) { index in
            if index == 80 { recording.stopAtNextFrame(handingOver: false) }
        }
        let frames = try clip.frames(ofMovie: recording.url)
        #expect(frames == (Array(15..<40) + Array(45..<80)).map(Optional.some), "\(frames)")
        #expect(recording.droppedFrameCount == 5, "3 lost, 2 left out up to the key frame")
        #expect(recording.writtenFrameCount == 60)
    }

    @Test func aRecordingHandsOverToTheNextAtAKeyFrame() throws {
        let (clip, samples) = try Self.stream.get()
        let events = RecordingEvents()
        let first = try Self.recording("stored-first.mov", events: events)
        var recordings = [first]
        try Self.feed(Array(0...70), of: samples, to: { recordings }, events: events) { index in
            if index == 50 {
                first.stopAtNextFrame(handingOver: true)
                recordings.append(try Self.recording("stored-second.mov", events: events))
            }
            if index == 70 { recordings[1].stopAtNextFrame(handingOver: false) }
        }
        #expect(try clip.frames(ofMovie: first.url) == Array(0..<60).map(Optional.some), "the first ends at the key frame")
        #expect(try clip.frames(ofMovie: recordings[1].url) == Array(60..<70).map(Optional.some), "the second begins with it")
        #expect(first.droppedFrameCount == 0 && recordings[1].droppedFrameCount == 0)
    }

    @Test func aPauseEndsAtAKeyFrame() throws {
        let (clip, samples) = try Self.stream.get()
        let events = RecordingEvents()
        let recording = try Self.recording("stored-pause.mov", events: events)
        // Paused before frame 10; frames 12 to 14 lost while paused; resumed before frame 20.
        try Self.feed(Array(0...11) + Array(15...50), of: samples, to: { [recording] }, events: events) { index in
            if index == 10 { recording.pause() }
            if index == 20 { recording.resume() }
            if index == 50 { recording.stopAtNextFrame(handingOver: false) }
        }
        #expect(try clip.frames(ofMovie: recording.url) == (Array(0..<10) + Array(30..<50)).map(Optional.some))
        #expect(recording.droppedFrameCount == 0, "a pause drops nothing, and frames lost in it are not missing")
        #expect(events.events.contains(.paused(recording.url)) && events.events.contains(.resumed(recording.url)))
    }

    @Test func aStreamWithoutKeyFramesStartsAfterTwoSecondsOfWaiting() throws {
        let (_, samples) = try Self.keyFrameOnce.get()
        let events = RecordingEvents()
        let recording = try Self.recording("stored-no-key.mov", events: events)
        // Joined after the only key frame: the wait begins at frame 1 and ends 2 s (60 frames) later.
        try Self.feed(Array(1...100), of: samples, to: { [recording] }, events: events) { index in
            if index == 100 { recording.stopAtNextFrame(handingOver: false) }
        }
        #expect(recording.writtenFrameCount == 100 - 61, "frames 61 to 99")
        // ffprobe's packets (which do not decode without the key frame) are those frames, in
        // order, from time 0: their sizes are the samples' own.
        let listing = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v",
                                                                    "-show_entries", "packet=pts_time,size", "-of", "csv=p=0",
                                                                    recording.url.path]), as: UTF8.self)
        let packets = listing.split(separator: "\n").map { $0.split(separator: ",") }
        #expect(packets.compactMap { Int($0.last ?? "") } == samples[61..<100].map { $0.dataBuffer?.dataLength ?? -1 })
        #expect(packets.first.flatMap { Double($0.first ?? "") } == 0, "the file starts with frame 61")
    }
}
