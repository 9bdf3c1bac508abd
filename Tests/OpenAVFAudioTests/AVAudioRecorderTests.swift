import Foundation
import Testing
import OpenAVFAudio
import OpenCoreMedia
import TestSupport

/// AVAudioRecorder from the Test Tone Microphone (chosen as the session's preferred input: its
/// port is `.virtual`), checked on the files by ffmpeg and ffprobe: the beeps (at whole seconds
/// of the host clock) land at whole seconds of a recording started at a whole second, a
/// duration is exact to the frame, the meters follow the beeps; bad settings, folders and
/// devices fail as Apple's recorder does, leaving no file. Runs in the real-time phase.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AVAudioRecorderTests {
    static let rate = 48_000

    /// Makes the Test Tone Microphone the session's input for `body`.
    func withTestTone<T>(_ body: () throws -> T) throws -> T {
        let session = AVAudioSession.sharedInstance()
        let tone = try #require(session.availableInputs?.first { $0.portType == .virtual },
                                "the Test Tone Microphone is an input")
        #expect(tone.portName == "Test Tone Microphone")
        try session.setPreferredInput(tone)
        defer { try? session.setPreferredInput(nil) }
        return try body()
    }

    func fileURL(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("recorder-\(UUID().uuidString)-\(name)")
    }

    nonisolated(unsafe) static let floatWAV: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: rate,
                                          AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true]

    /// The frames where a beep starts: the first sample above the tone's level after 0.5 s
    /// below it.
    static func beepOnsets(_ samples: [Float]) -> [Int] {
        var onsets: [Int] = []
        var quietSince = -rate
        for (index, sample) in samples.enumerated() {
            if abs(sample) > 0.3 {
                if index - quietSince > rate / 2 { onsets.append(index) }
                quietSince = index
            }
        }
        return onsets
    }

    @Test func beepsLandAtWholeSecondsOfTheFile() throws {
        try withTestTone {
            let url = fileURL("beeps.wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let recorder = try AVAudioRecorder(url: url, settings: Self.floatWAV)
            let finished = Finished()
            recorder.delegate = finished
            #expect(recorder.prepareToRecord())
            let start = (recorder.deviceCurrentTime + 0.5).rounded(.up)
            #expect(recorder.record(atTime: start, forDuration: 3.5))
            #expect(finished.wait(timeout: 15) == true)
            #expect(!recorder.isRecording && recorder.currentTime == 0)
            let samples = try DecodedAudio.samples(of: url)
            #expect(samples.count == 3 * Self.rate + Self.rate / 2)
            let onsets = Self.beepOnsets(samples)
            #expect(onsets.count == 4, "\(onsets)")
            for (second, onset) in onsets.enumerated() {
                #expect(abs(onset - second * Self.rate) <= Self.rate * 5 / 1000, "beep \(second) at frame \(onset)")
            }
        }
    }

    @Test(arguments: ["wav", "flac", "caf"])
    func recordForDurationLastsThatLongToTheFrame(fileExtension: String) throws {
        try withTestTone {
            let url = fileURL("three.\(fileExtension)")
            defer { try? FileManager.default.removeItem(at: url) }
            var settings: [String: Any] = [AVSampleRateKey: Self.rate, AVNumberOfChannelsKey: 2]
            settings[AVFormatIDKey] = fileExtension == "flac" ? kAudioFormatFLAC : kAudioFormatLinearPCM
            if fileExtension != "flac" { settings[AVLinearPCMBitDepthKey] = 16 }
            let recorder = try AVAudioRecorder(url: url, settings: settings)
            let finished = Finished()
            recorder.delegate = finished
            #expect(recorder.record(forDuration: 3))
            #expect(recorder.isRecording)
            #expect(finished.wait(timeout: 15) == true)
            let frames = try #require(try DecodedAudio.sampleCount(of: url))
            #expect(abs(frames - 3 * Self.rate) <= 1, "\(frames) frames")
            #expect(try DecodedAudio.samples(of: url).count == 3 * Self.rate)
        }
    }

    @Test func aFormatsSettingsRecordAStereoCAF() throws {
        try withTestTone {
            let url = fileURL("format.caf")
            defer { try? FileManager.default.removeItem(at: url) }
            let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
            let recorder = try AVAudioRecorder(url: url, format: format)
            #expect(recorder.url == url && recorder.format.sampleRate == 44_100 && recorder.format.channelCount == 2)
            let finished = Finished()
            recorder.delegate = finished
            #expect(recorder.record(forDuration: 1))
            #expect(finished.wait(timeout: 10) == true)
            #expect(try DecodedAudio.sampleCount(of: url) == 44_100)
            let probe = try Fixtures.probe(url)
            let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
            #expect(stream["channels"] as? Int == 2 && stream["sample_rate"] as? String == "44100")
        }
    }

    @Test func meteringFollowsTheBeeps() throws {
        try withTestTone {
            let url = fileURL("meters.wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let recorder = try AVAudioRecorder(url: url, settings: Self.floatWAV)
            recorder.isMeteringEnabled = true
            #expect(recorder.record())
            /// Sleeps until a host-clock time: the beeps are on that clock.
            func until(_ time: TimeInterval) { Thread.sleep(forTimeInterval: max(0, time - recorder.deviceCurrentTime)) }
            let second = recorder.deviceCurrentTime.rounded(.up)
            until(second + 0.3)
            recorder.updateMeters() // from here: the tone alone
            until(second + 0.9)
            recorder.updateMeters()
            let quietPeak = recorder.peakPower(forChannel: 0), quietAverage = recorder.averagePower(forChannel: 0)
            until(second + 1.3)
            recorder.updateMeters() // the beep at second + 1
            let beepPeak = recorder.peakPower(forChannel: 0)
            recorder.stop()
            #expect(abs(quietPeak - -20) < 0.5, "the tone peaks at -20 dBFS: \(quietPeak)")
            #expect(abs(quietAverage - -23) < 0.5, "the tone's RMS is -23 dBFS: \(quietAverage)")
            #expect(abs(beepPeak - Float(20 * log10(0.7))) < 0.5, "the beep and tone peak at -3.1 dBFS: \(beepPeak)")
            #expect(recorder.deleteRecording())
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func pauseLeavesOutWhatWasPlayedMeanwhile() throws {
        try withTestTone {
            let url = fileURL("paused.wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let recorder = try AVAudioRecorder(url: url, settings: Self.floatWAV)
            let start = (recorder.deviceCurrentTime + 0.3).rounded(.up) + 0.5
            #expect(recorder.record(atTime: start))
            Thread.sleep(forTimeInterval: max(0, start + 1 - recorder.deviceCurrentTime))
            recorder.pause()
            #expect(!recorder.isRecording)
            let paused = recorder.currentTime
            #expect(paused > 0.9 && paused < 1.2)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(recorder.currentTime == paused)
            #expect(recorder.record())
            Thread.sleep(forTimeInterval: 0.5)
            recorder.stop()
            let count = try DecodedAudio.samples(of: url).count
            #expect(Double(count) / Double(Self.rate) > paused + 0.4 && Double(count) / Double(Self.rate) < paused + 0.7)
        }
    }

    @Test func badSettingsFoldersAndInputsFailAndLeaveNoFile() throws {
        // Settings the file type cannot hold, a type nobody writes.
        #expect(throws: NSError.self) {
            try AVAudioRecorder(url: fileURL("aac.wav"), settings: [AVFormatIDKey: kAudioFormatMPEG4AAC])
        }
        do {
            _ = try AVAudioRecorder(url: fileURL("x.xyz"), settings: Self.floatWAV)
            Issue.record("an unknown file type was accepted")
        } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain && error.code == Int(kAudioFileUnsupportedFileTypeError))
        }
        // A folder that does not exist.
        let missingFolder = Fixtures.folder.appendingPathComponent("no-such-folder/x.wav")
        #expect(throws: NSError.self) { try AVAudioRecorder(url: missingFolder, settings: Self.floatWAV) }
        try withTestTone {
            // A rate the input does not have: nothing recorded, no file.
            let url = fileURL("22k.wav")
            let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 22_050,
                                                                                 AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
            #expect(!recorder.prepareToRecord())
            #expect(!recorder.record())
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
        // An input that went away: a private server whose preferred source is unloaded.
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let session = AVAudioSession.sharedInstance()
        session.soundServer = daemon.server
        defer { session.soundServer = nil; try? session.setPreferredInput(nil) }
        let module = try daemon.loadSineSource(name: "gone_mic", frequency: 440, properties: ["device.bus": "usb"])
        try session.setPreferredInput(try #require(session.availableInputs?.first { $0.uid == "gone_mic" }))
        try daemon.unloadModule(module)
        // The preferred input is gone: the route falls back to another input, as Apple's does.
        #expect(session.preferredInput == nil)
        #expect(session.currentRoute.inputs.first.map { $0.uid != "gone_mic" } == true)
    }

    @Test func aLostInputFinishesTheFileAndTellsTheDelegate() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let session = AVAudioSession.sharedInstance()
        session.soundServer = daemon.server
        defer { session.soundServer = nil; try? session.setPreferredInput(nil) }
        let module = try daemon.loadSineSource(name: "unplugged_mic", frequency: 440, properties: ["device.bus": "usb"])
        try session.setPreferredInput(try #require(session.availableInputs?.first { $0.uid == "unplugged_mic" }))
        let url = fileURL("lost.m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000,
                                                                AVNumberOfChannelsKey: 1])
        let finished = Finished()
        recorder.delegate = finished
        #expect(recorder.record())
        #expect(try pollUntil(timeout: 10) { recorder.currentTime > 0.5 })
        try daemon.unloadModule(module)
        #expect(finished.wait(timeout: 10) == false, "finished, not successfully")
        let samples = try DecodedAudio.samples(of: url)
        #expect(samples.count > 48_000 / 2, "the recording so far is in a complete file")
        #expect(abs(DecodedAudio.frequency(Array(samples.dropFirst(4800).dropLast(4800)), sampleRate: 48_000) - 440) < 3)
    }
}
