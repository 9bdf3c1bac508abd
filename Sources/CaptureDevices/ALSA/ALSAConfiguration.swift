import CALSA
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libasound configuration tree, held while PCMs are looked up and opened through it: the
/// process's own (`snd_config_update_ref`: the system's `alsa.conf`, `ALSA_CONFIG_PATH`, the
/// user's `~/.asoundrc`), or a private one loaded from a list of files
/// (`ALSADiscovery.configurationFiles`, the tests' hook).
final class ALSAConfiguration {
    private let top: OpaquePointer
    /// Whether the tree was loaded for this object (else it is a reference to the process's).
    private let isPrivate: Bool
    private let update: OpaquePointer?

    /// The tree of `files` (a `:`-separated list, as `ALSA_CONFIG_PATH` takes; nil: the
    /// process's own tree).
    init(files: String?) throws(CaptureDeviceError) {
        calsa_silence_errors()
        var top: OpaquePointer?
        var update: OpaquePointer?
        let status = if let files { snd_config_update_r(&top, &update, files) } else { snd_config_update_ref(&top) }
        guard status >= 0, let top else {
            throw CaptureDeviceError(.failed, "cannot load the ALSA configuration \(files ?? ""): \(ALSAConfiguration.describe(status))")
        }
        self.top = top
        self.update = update
        isPrivate = files != nil
    }

    deinit {
        if isPrivate {
            snd_config_delete(top)
            if let update { snd_config_update_free(update) }
        } else {
            snd_config_unref(top)
        }
    }

    /// The `type` of the PCM definition `name` resolves to (`hw`, `plug`, `pulse`, `file`…), nil
    /// when there is none.
    func type(ofPCM name: String) -> String? {
        var definition: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", name, &definition) >= 0, let definition else { return nil }
        defer { snd_config_delete(definition) }
        var node: OpaquePointer?
        var text: UnsafePointer<CChar>?
        guard snd_config_search(definition, "type", &node) >= 0, snd_config_get_string(node, &text) >= 0, let text else {
            return nil
        }
        return String(cString: text)
    }

    /// Opens PCM `name` for capture, non-blocking (a busy device fails at once with `EBUSY`).
    func openCapture(_ name: String) throws(CaptureDeviceError) -> OpaquePointer {
        var pcm: OpaquePointer?
        let status = snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK, top)
        guard status >= 0, let pcm else { throw Self.openError(name, status) }
        return pcm
    }

    /// The error of a failed open of `name` with libasound's negative errno `status`.
    static func openError(_ name: String, _ status: Int32) -> CaptureDeviceError {
        switch -status {
        case EBUSY:
            CaptureDeviceError(.busy, "ALSA device \(name) is busy: another program is recording from it")
        case EACCES, EPERM:
            CaptureDeviceError(.unavailable, "permission denied opening ALSA device \(name): add the user to the `audio` "
                + "group (sudo usermod -aG audio $USER, then log in again)")
        case ENOENT, ENODEV, ENXIO:
            CaptureDeviceError(.disconnected, "ALSA device \(name) is not there (\(describe(status)))")
        default:
            CaptureDeviceError(.failed, "cannot open ALSA device \(name): \(describe(status))")
        }
    }

    /// libasound's text for a negative error code.
    static func describe(_ status: Int32) -> String { String(cString: snd_strerror(status)) }
}
