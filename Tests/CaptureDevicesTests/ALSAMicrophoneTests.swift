import Foundation
import HostSystem
import Testing
import OpenCoreMedia
import TestSupport
@testable import CaptureDevices

/// Which hints ALSA discovery lists (`ALSADiscovery.isListed`), on the hints a Raspberry Pi with
/// a USB microphone and a desktop with PulseAudio give.
@Test func alsaDiscoveryListsCardDevicesAndOwnPCMsButNotSoundServerRoutes() {
    func listed(_ name: String, _ type: String?, direction: String? = nil, server: Bool = false) -> Bool {
        ALSADiscovery.isListed(ALSAHint(name: name, description: name, direction: direction), type: type, soundServerRuns: server)
    }
    #expect(listed("hw:CARD=Device,DEV=0", "hw"))
    #expect(!listed("plughw:CARD=Device,DEV=0", "plug") && !listed("sysdefault:CARD=Device", "plug"))
    #expect(!listed("dsnoop:CARD=Device,DEV=0", "dsnoop") && !listed("front:CARD=Device,DEV=0", "hw"))
    #expect(!listed("hw:CARD=Device,DEV=0", "hw", direction: "Output"))
    #expect(listed("hw:CARD=Device,DEV=0", "hw", direction: "Input"))
    #expect(listed("default", "plug") && listed("mymic", "dsnoop") && listed("openavtone", "file"))
    #expect(!listed("null", "null") && !listed("pulse", "pulse") && !listed("default", "pulse") && !listed("default", "pipewire"))
    #expect(!listed("jack", "jack") && !listed("samplerate", "rate") && !listed("upmix", "upmix") && !listed("oss", "oss"))
    #expect(!listed("undefined", nil))
    // A sound server with capture sources owns the cards; PCMs of the user's own stay listed.
    #expect(!listed("hw:CARD=Device,DEV=0", "hw", server: true) && listed("openavtone", "file", server: true))
}

extension RealTimeDeviceTests {
    /// ALSA capture through the real libasound, with no sound card: ALSA's `file` plugin reads a
    /// tone ffmpeg wrote, paced by a private PulseAudio daemon through ALSA's pulse plugin
    /// (`ALSAToneDevice`). The samples delivered must be the file's, exactly, on a continuous
    /// host-clock timeline.
    @Suite(.timeLimit(.minutes(10))) struct ALSAMicrophoneTests {
        /// The tone device's microphone, as discovery lists it through the device's configuration.
        static func microphone(_ device: ALSAToneDevice) throws -> ALSAMicrophone {
            let microphones = ALSADiscovery.$configurationFiles.withValue(device.configurationFiles) {
                ALSADiscovery.microphones(hints: [device.hint, ALSAHint(name: "null", description: "null")], soundServerRuns: false)
            }
            return try #require(microphones.first, "openavtone not listed")
        }

        @Test func discoveryDescribesTheToneDevice() throws {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let device = try ALSAToneDevice(daemon: daemon)
            let microphone = try Self.microphone(device)
            #expect(microphone.uniqueID == "alsa:openavtone" && microphone.localizedName == "OpenAV Test Tone")
            #expect(microphone.manufacturer == "ALSA" && !microphone.isVirtual && microphone.mediaKind == .audio)
            // The pulse plugin takes any rate and channel count: the standard rates, mono and stereo,
            // in float, S32 and S16; 48 kHz stereo float first.
            let formats = microphone.audioFormats
            #expect(formats.first == CaptureAudioFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32))
            #expect(Set(formats.map(\.sampleRate)) == Set(ALSAPCM.standardRates))
            #expect(Set(formats.map(\.channelCount)) == [1, 2] && Set(formats.map(\.sampleFormat)) == [.float32, .int32, .int16])
            #expect(formats.count == ALSAPCM.standardRates.count * 2 * 3)
            // The same object on the next listing.
            #expect(try Self.microphone(device) === microphone)
        }

        @Test(arguments: [("s16le", CaptureAudioSampleFormat.int16), ("s32le", .int32), ("f32le", .float32)])
        func capturesTheFileExactlyOnAContinuousTimeline(rawFormat: String, sampleFormat: CaptureAudioSampleFormat) throws {
            try HeavyLoad.exclusively {
                let daemon = try PulseAudioDaemon()
                defer { daemon.stop() }
                let device = try ALSAToneDevice(daemon: daemon, rawFormat: rawFormat)
                let microphone = try Self.microphone(device)
                let rate = device.sampleRate
                let format = CaptureAudioFormat(sampleRate: rate, channelCount: 1, sampleFormat: sampleFormat)
                let collector = Collector { AudioRecord($0) }
                let started = HostClock.now
                try microphone.start(format: .audio(format), frameDuration: nil, handler: collector.handler)
                defer { microphone.stop() }
                #expect(microphone.isRunning)
                // The file, then a quarter of a second of the monitor's silence.
                let fileFrames = Int(ALSAToneDevice.leadIn * Double(rate)) + device.toneSamples
                let buffers = (fileFrames + rate / 4) / (rate / 100)
                let records = collector.wait(for: buffers, timeout: 10)
                microphone.stop()
                #expect(!microphone.isRunning && collector.errors.isEmpty)
                try #require(records.count >= buffers, "\(records.count) buffers")

                // The samples are the file's, sample for sample (nothing lost or repeated).
                let samples = records.flatMap { $0.channels[0] }
                let reference = try Self.referenceSamples(device)
                try #require(reference.count == fileFrames)
                // (AudioRecord scales integers by their largest value, ffmpeg by a power of two.)
                let scale = sampleFormat == .int16 ? 32767.0 / 32768 : sampleFormat == .int32 ? 2_147_483_647.0 / 2_147_483_648 : 1
                let mismatches = zip(samples, reference).filter { abs($0 * scale - $1) > 1e-9 }.count
                #expect(mismatches == 0, "\(mismatches) of \(fileFrames) samples differ from the file")
                #expect(samples[fileFrames...].allSatisfy { $0 == 0 }, "not silence after the file")

                // The tone: frequency and level from the delivered samples.
                let toneStart = Int(ALSAToneDevice.leadIn * Double(rate))
                let tone = samples[(toneStart + rate / 10)..<(fileFrames - rate / 10)]
                let hertz = frequency(tone, rate: rate)
                #expect(abs(hertz - Double(ALSAToneDevice.toneFrequency)) < 0.5, "\(hertz) Hz")
                let level = 20 * log10((tone.reduce(0) { $0 + $1 * $1 } / Double(tone.count)).squareRoot())
                #expect(abs(level - (ALSAToneDevice.tonePeakLevel - 3.0103)) < 0.2, "\(level) dBFS")

                // Buffers of 10 ms, numbered without a gap, each starting where the previous one ended
                // once the pacing daemon's start-up is over: the null sink's monitor hands over its
                // first tenths of a second in a burst, so the first buffers, measured late, re-anchor
                // back when the measurement catches up (`PCMTimeline`). The tone, after the lead-in,
                // lasts exactly its sample count by the stamps.
                #expect(records.allSatisfy { $0.sampleCount == rate / 100 && $0.bufferPresentationTime == $0.presentationTime })
                #expect(records.map(\.sequenceNumber) == Array(0..<UInt64(records.count)))
                #expect(records.allSatisfy { $0.droppedBefore == 0 })
                let startUp = 25
                let jumps = zip(records.indices, zip(records, records.dropFirst()))
                    .filter { $1.1.presentationTime != $1.0.presentationTime + $1.0.duration }
                #expect(jumps.allSatisfy { $0.0 < startUp && $0.1.1.presentationTime < $0.1.0.presentationTime + $0.1.0.duration },
                        "re-anchored after buffers \(jumps.map(\.0))")
                let toneBuffers = (toneStart / (rate / 100))..<(fileFrames / (rate / 100))
                #expect(records[toneBuffers.upperBound].presentationTime - records[toneBuffers.lowerBound].presentationTime
                        == CMTime(value: CMTimeValue(device.toneSamples), timescale: CMTimeScale(rate)))

                // On the host clock: recorded after the start was asked for, before arrival.
                let first = nanoseconds(records[0].presentationTime)
                #expect(first >= Int64(started) - 1_000_000_000 && first < Int64(records[0].arrival), "first stamp \(first), start \(started)")
                let lags = records.map { Int64($0.arrival) - nanoseconds($0.presentationTime + $0.duration) }.sorted()
                // The timeline may run up to `maximumDrift` ahead of the measurement before it re-anchors.
                #expect(lags.first! > -nanoseconds(PCMTimeline.maximumDrift), "a buffer ended \(-lags.first!) ns after it arrived")
            }
        }

        /// The tone file's samples, as fractions of full scale.
        static func referenceSamples(_ device: ALSAToneDevice) throws -> [Double] {
            let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", device.rawFormat, "-ar", "\(device.sampleRate)",
                                                   "-ac", "1", "-i", device.tonePath, "-f", "f64le", "-"])
            return data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        }

        @Test func aMissingOrBusyDeviceFailsToStartWithAnError() throws {
            let daemon = try PulseAudioDaemon()
            defer { daemon.stop() }
            let device = try ALSAToneDevice(daemon: daemon)
            let microphone = try Self.microphone(device)
            let format = microphone.formats[0]
            // Running already.
            try microphone.start(format: format, frameDuration: nil) { _ in }
            #expect(throws: CaptureDeviceError(.alreadyRunning, "OpenAV Test Tone is already running")) {
                try microphone.start(format: format, frameDuration: nil) { _ in }
            }
            microphone.stop()
            // The daemon the PCM reads through is gone: libasound's error, named.
            daemon.stop()
            #expect(throws: CaptureDeviceError(.failed, "cannot open ALSA device openavtone: Connection refused")) {
                try microphone.start(format: format, frameDuration: nil) { _ in }
            }
            #expect(!microphone.isRunning)
            // A PCM that is not defined at all (an unplugged card's hw:CARD=… is the same): not connected.
            let missing = ALSAMicrophone(hint: ALSAHint(name: "hw:CARD=OpenAVNone,DEV=0", description: "none"),
                                         formats: [format], configurationFiles: device.configurationFiles)
            #expect(performing: { try missing.start(format: format, frameDuration: nil) { _ in } },
                    throws: { ($0 as? CaptureDeviceError)?.reason == .disconnected })
            #expect(!missing.isRunning)
            // Busy and no permission: the errno libasound returns, as the reasons the session maps
            // to deviceInUseByAnotherApplication, and a message naming the `audio` group.
            #expect(ALSAConfiguration.openError("hw:0", -EBUSY).reason == .busy)
            let denied = ALSAConfiguration.openError("hw:0", -EACCES)
            #expect(denied.reason == .unavailable && denied.message.contains("`audio` group"))
        }
    }
}
