import CaptureDevices
import Foundation

/// A real libasound capture PCM for tests on a machine without a sound card: ALSA's `file`
/// plugin reading a tone that ffmpeg wrote (`infile`), in front of ALSA's PulseAudio plugin
/// recording a private daemon's null sink monitor (`slave.pcm`), which paces the reads in real
/// time. (With the `null` plugin as slave, `snd_pcm_readi` returns the whole file at once, with
/// no pacing at all; past the end of `infile` the file plugin hands over the slave's samples:
/// here the monitor's silence.)
///
/// The PCM is defined in a configuration file of its own, loaded after the system's
/// `alsa.conf`: bind `configurationFiles` to `ALSADiscovery.$configurationFiles` in process, or
/// give `environment` (`ALSA_CONFIG_PATH`) to a child process.
public final class ALSAToneDevice: @unchecked Sendable {
    /// The PCM's name.
    public let pcmName = "openavtone"
    /// The description its hint gives.
    public let pcmDescription = "OpenAV Test Tone"
    /// The sample rate of the tone file.
    public let sampleRate: Int
    /// The channel count of the tone file.
    public let channelCount: Int
    /// The sample type of the tone file, as ffmpeg names raw PCM (`s16le`, `s32le`, `f32le`).
    public let rawFormat: String
    /// Silence before the tone in the file, in seconds.
    public static let leadIn = 0.5
    /// The tone's frequency, in hertz.
    public static let toneFrequency = 440
    /// The tone's peak level, in dBFS; its RMS level is 3.01 dB lower.
    public static let tonePeakLevel = -6.0
    /// The tone's length in the file, in samples.
    public var toneSamples: Int { sampleRate * 3 / 2 }
    /// The tone file: raw PCM of `rawFormat`.
    public let tonePath: String
    /// The files libasound loads: the system's `alsa.conf`, then the PCM's definition.
    public let configurationFiles: String

    private let folder: URL

    /// Writes the tone (lead-in silence, then `toneSamples` of a sine) and a configuration
    /// whose `openavtone` PCM reads it, paced by `daemon`'s monitor.
    public init(daemon: PulseAudioDaemon, sampleRate: Int = 48_000, channelCount: Int = 1, rawFormat: String = "s16le") throws {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.rawFormat = rawFormat
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openav-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tone = folder.appendingPathComponent("tone.raw")
        tonePath = tone.path
        let amplitude = pow(10, Self.tonePeakLevel / 20)
        let sine = "if(gte(n\\,\(Int(Self.leadIn * Double(sampleRate))))\\,\(amplitude)*sin(2*PI*\(Self.toneFrequency)*t)\\,0)"
        let total = 1.5 + Self.leadIn  // toneSamples, in seconds, after the lead-in
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                               "aevalsrc=\(Array(repeating: sine, count: channelCount).joined(separator: "|")):s=\(sampleRate):d=\(total)",
                               "-f", rawFormat, "-c:a", "pcm_" + rawFormat, tone.path])
        let configuration = folder.appendingPathComponent("asound.conf")
        try """
        pcm.\(pcmName) {
            type file
            slave.pcm { type pulse server "\(daemon.server)" device "\(daemon.monitorName)" }
            file "/dev/null"
            infile "\(tone.path)"
            format "raw"
            hint { show on description "\(pcmDescription)" }
        }

        """.write(to: configuration, atomically: true, encoding: .utf8)
        configurationFiles = "/usr/share/alsa/alsa.conf:" + configuration.path
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment a child process needs to see the PCM.
    public var environment: [String: String] { ["ALSA_CONFIG_PATH": configurationFiles] }

    /// The PCM's hint, as `snd_device_name_hint` gives it.
    package var hint: ALSAHint { ALSAHint(name: pcmName, description: pcmDescription) }
}
