import Foundation
import Testing
import TestSupport

/// `openav devices` and `openav record --audio` with an ALSA device, as a user runs them on a
/// machine without a sound server: the tone device (`ALSAToneDevice`, ALSA's `file` plugin paced
/// by a private PulseAudio daemon) given to the child process through `ALSA_CONFIG_PATH`, so
/// that libasound's own name hints list it. ffprobe and ffmpeg judge the movie.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct ALSACommandTests {
    /// Stereo float at 48 kHz: the format a session uses by default (the device's first).
    static func toneDevice(_ daemon: PulseAudioDaemon) throws -> ALSAToneDevice {
        try ALSAToneDevice(daemon: daemon, sampleRate: 48_000, channelCount: 2, rawFormat: "f32le")
    }

    @Test func devicesListsTheALSAMicrophone() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let device = try Self.toneDevice(daemon)
        let (status, out, err) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["devices"],
                                                           environment: device.environment)
        #expect(status == 0, "\(err)")
        let line = try #require(out.split(separator: "\n").first { $0.contains("[alsa:openavtone]") }, "\(out)")
        #expect(line.hasPrefix("OpenAV Test Tone  [alsa:openavtone]  microphone, ALSA"), "\(line)")
        #expect(out.contains("48000 Hz  2 ch  float32") && out.contains("44100 Hz  1 ch  int16"))
        // The PulseAudio plugin's own PCM, `pulse`, is never listed: the PulseAudio backend's job.
        #expect(!out.contains("[alsa:pulse]") && !out.contains("[alsa:null]"))
    }

    @Test(arguments: ["alsa:openavtone", "OpenAV Test Tone"])
    func recordsTheToneIntoAMovie(audio: String) throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let device = try Self.toneDevice(daemon)
        let movie = ConvertCommandTests.output("alsa.mov")
        let (status, out, err) = try ProbeCommandTests.run(
            try ProbeCommandTests.openav, ["record", "--video", "none", "--audio", audio, "--duration", "3", movie],
            environment: device.environment)
        #expect(status == 0, "\(out)\n\(err)")
        #expect(out.contains("Recorded 3.00 s"), "\(out)")

        let streams = try ConvertCommandTests.streams(movie)
        try #require(streams.count == 1)
        #expect(streams[0]["codec_name"] as? String == "aac" && streams[0]["sample_rate"] as? String == "48000")
        #expect(streams[0]["channels"] as? Int == 2)
        let duration = try #require(Double(streams[0]["duration"] as? String ?? ""))
        #expect(abs(duration - 3) < 0.05, "\(duration) s")

        // The tone, decoded by ffmpeg: 440 Hz at its level, as long as in the file.
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", movie, "-af", "pan=mono|c0=c0", "-f", "f64le", "-"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        let rate = device.sampleRate
        let threshold = pow(10, ALSAToneDevice.tonePeakLevel / 20) / 2
        let onset = try #require(samples.firstIndex { abs($0) > threshold }, "no tone recorded")
        let end = try #require(samples.lastIndex { abs($0) > threshold })
        let seconds = Double(end - onset) / Double(rate)
        #expect(abs(seconds - Double(device.toneSamples) / Double(rate)) < 0.01, "the tone lasts \(seconds) s")
        let tone = samples[(onset + rate / 10)..<(end - rate / 10)]
        let level = 20 * log10((tone.reduce(0) { $0 + $1 * $1 } / Double(tone.count)).squareRoot())
        #expect(abs(level - (ALSAToneDevice.tonePeakLevel - 3.0103)) < 0.5, "\(level) dBFS")
        var crossings: [Double] = []
        for index in tone.indices.dropLast() where tone[index] < 0 && tone[index + 1] >= 0 {
            crossings.append(Double(index) + tone[index] / (tone[index] - tone[index + 1]))
        }
        let hertz = Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / Double(rate))
        #expect(abs(hertz - Double(ALSAToneDevice.toneFrequency)) < 0.5, "\(hertz) Hz")
    }

    @Test func aMissingALSADeviceIsAClearError() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        let device = try Self.toneDevice(daemon)
        let (status, _, err) = try ProbeCommandTests.run(
            try ProbeCommandTests.openav, ["record", "--video", "none", "--audio", "alsa:nosuchdevice", "--duration", "1",
                                           ConvertCommandTests.output("none.mov")],
            environment: device.environment)
        #expect(status != 0)
        #expect(err.contains("no microphone \"alsa:nosuchdevice\""), "\(err)")
    }
}
