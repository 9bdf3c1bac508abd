import CALSA
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open libasound capture PCM (`snd_pcm_t`), closed exactly once when released: what its
/// hardware parameters allow, and setting them.
final class ALSAPCM {
    /// The `snd_pcm_t`.
    let handle: OpaquePointer
    /// The PCM's name.
    let name: String

    /// Opens `name` for capture through `configuration`, non-blocking.
    init(_ name: String, in configuration: ALSAConfiguration) throws(CaptureDeviceError) {
        handle = try configuration.openCapture(name)
        self.name = name
    }

    deinit {
        snd_pcm_close(handle)
    }

    /// The sample rates listed for a PCM whose range includes them.
    static let standardRates = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000]
    /// The sample formats offered, best first, with libasound's native-endian names.
    static let sampleFormats: [(CaptureAudioSampleFormat, snd_pcm_format_t)] = [
        (.float32, calsa_format_float()), (.int32, calsa_format_s32()), (.int16, calsa_format_s16()),
    ]

    /// The formats of PCM `name`, opened for the purpose: every `standardRates` rate and channel
    /// count its hardware parameters accept (channel counts from its minimum to its maximum when
    /// that is at most 8, else up to stereo: a converting PCM takes any), in S16, S32 and FLOAT.
    /// The first is the one a session uses by default: 48 kHz (else the nearest rate), stereo
    /// when possible, float.
    static func formats(of name: String, in configuration: ALSAConfiguration) throws(CaptureDeviceError) -> [CaptureFormat] {
        let pcm = try ALSAPCM(name, in: configuration)
        var parameters: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&parameters) >= 0, let parameters else { return [] }
        defer { snd_pcm_hw_params_free(parameters) }
        guard snd_pcm_hw_params_any(pcm.handle, parameters) >= 0 else { return [] }
        var minimum: UInt32 = 0, maximum: UInt32 = 0
        guard snd_pcm_hw_params_get_channels_min(parameters, &minimum) >= 0,
              snd_pcm_hw_params_get_channels_max(parameters, &maximum) >= 0, minimum >= 1 else { return [] }
        let channelCounts = Int(minimum)...Int(maximum <= 8 ? maximum : max(minimum, 2))
        var formats: [CaptureAudioFormat] = []
        for rate in standardRates where snd_pcm_hw_params_test_rate(pcm.handle, parameters, UInt32(rate), 0) == 0 {
            for channels in channelCounts where snd_pcm_hw_params_test_channels(pcm.handle, parameters, UInt32(channels)) == 0 {
                for (sampleFormat, alsaFormat) in sampleFormats
                where snd_pcm_hw_params_test_format(pcm.handle, parameters, alsaFormat) == 0 {
                    formats.append(CaptureAudioFormat(sampleRate: rate, channelCount: channels, sampleFormat: sampleFormat))
                }
            }
        }
        func rank(_ format: CaptureAudioFormat) -> (Int, Int) {
            (abs(format.sampleRate - 48000), format.channelCount == 2 ? 0 : 1)
        }
        let preferred = formats.min { rank($0) < rank($1) }
        return (formats.filter { $0 == preferred } + formats.filter { $0 != preferred }).map { .audio($0) }
    }

    /// Sets the hardware parameters for capturing `format` interleaved in periods of
    /// `periodFrames` frames, with a ring buffer of at least four periods and 200 ms, and
    /// prepares the PCM.
    func configure(_ format: CaptureAudioFormat, periodFrames: Int) throws(CaptureDeviceError) {
        var parameters: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&parameters) >= 0, let parameters else {
            throw CaptureDeviceError(.unavailable, "cannot allocate ALSA hardware parameters")
        }
        defer { snd_pcm_hw_params_free(parameters) }
        let alsaFormat = Self.sampleFormats.first { $0.0 == format.sampleFormat }!.1
        var period = snd_pcm_uframes_t(periodFrames)
        var buffer = snd_pcm_uframes_t(max(4 * periodFrames, format.sampleRate / 5))
        var direction: Int32 = 0
        let steps: [(String, () -> Int32)] = [
            ("any", { snd_pcm_hw_params_any(self.handle, parameters) }),
            ("access", { snd_pcm_hw_params_set_access(self.handle, parameters, SND_PCM_ACCESS_RW_INTERLEAVED) }),
            ("format", { snd_pcm_hw_params_set_format(self.handle, parameters, alsaFormat) }),
            ("channels", { snd_pcm_hw_params_set_channels(self.handle, parameters, UInt32(format.channelCount)) }),
            ("rate", { snd_pcm_hw_params_set_rate(self.handle, parameters, UInt32(format.sampleRate), 0) }),
            ("period", { snd_pcm_hw_params_set_period_size_near(self.handle, parameters, &period, &direction) }),
            ("buffer", { snd_pcm_hw_params_set_buffer_size_near(self.handle, parameters, &buffer) }),
            ("apply", { snd_pcm_hw_params(self.handle, parameters) }),
            ("prepare", { snd_pcm_prepare(self.handle) }),
        ]
        for (step, call) in steps {
            let status = call()
            guard status >= 0 else { throw error(status, "setting \(step) for \(format)") }
        }
    }

    /// The error of a failed operation with libasound's negative errno `status`: `ENODEV`,
    /// `EBADFD` and `EIO` are a vanished device.
    func error(_ status: Int32, _ operation: String) -> CaptureDeviceError {
        let reason: CaptureDeviceError.Reason = switch -status {
        case ENODEV, EBADFD, EIO, ENXIO: .disconnected
        case EBUSY: .busy
        default: .failed
        }
        return CaptureDeviceError(reason, "\(operation) on ALSA device \(name) failed: \(ALSAConfiguration.describe(status))")
    }
}
