import CALSA
import Foundation

/// Lists the ALSA capture PCMs (through libasound, no sound server needed: a Raspberry Pi, a
/// server) as `ALSAMicrophone`s: the ALSA part of the microphones entry of
/// `PlatformDiscoveries`.
///
/// Which PCMs are listed, from libasound's name hints (`snd_device_name_hint`), in its order:
/// - only those that can capture, never `null`;
/// - of a sound card, only the device itself, `hw:CARD=…,DEV=…` (its formats are the
///   hardware's); the card's `plughw`, `sysdefault`, `dsnoop`, `front`… hints are other routes to
///   the same microphone;
/// - of the others (`default`, PCMs defined in `/etc/asound.conf` or `~/.asoundrc`), those whose
///   definition is not of a `skippedTypes` type: a sound server's (`pulse`, `pipewire`, `jack`:
///   with a server running the PulseAudio backend lists its sources, without one they cannot
///   open), another audio API (`oss`), or a converter wrapped around another PCM (`rate`,
///   `speex`, `upmix`…);
/// - when a sound server lists capture sources (`soundServerRuns`), no card devices at all: the
///   server owns the cards, and opening one directly would take it from the server (or show
///   each microphone twice);
/// - only those that open now: a PCM that fails (no such card, a busy device, no permission) is
///   left out, since its formats cannot be read.
package enum ALSADiscovery {
    /// A private libasound configuration for the current task: a `:`-separated list of files
    /// (as `ALSA_CONFIG_PATH` takes; list the system's `alsa.conf` first) through which PCMs are
    /// looked up and opened instead of the process's own configuration. nil (the default) is
    /// the process's. Tests bind it with `$configurationFiles.withValue(_:operation:)`, which
    /// leaves the process environment, and so parallel tests, untouched.
    @TaskLocal package static var configurationFiles: String?

    /// The PCM definition types never listed: sound servers, other audio APIs, converters.
    static let skippedTypes: Set<String> = ["null", "pulse", "pipewire", "jack", "oss", "rate", "speex", "upmix",
                                            "vdownmix", "a52", "usb_stream"]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: ALSAMicrophone] = [:]

    /// The capture PCMs of this machine now, as the rules above list them.
    package static func microphones(soundServerRuns: Bool) -> [ALSAMicrophone] {
        microphones(hints: hints(), soundServerRuns: soundServerRuns)
    }

    /// The microphones of `hints` that the rules list, through `configurationFiles`. A PCM keeps
    /// its microphone object while it stays connected with the same formats.
    package static func microphones(hints: [ALSAHint], soundServerRuns: Bool) -> [ALSAMicrophone] {
        let files = configurationFiles
        guard let configuration = try? ALSAConfiguration(files: files) else { return [] }
        return hints.compactMap { hint -> ALSAMicrophone? in
            guard isListed(hint, type: configuration.type(ofPCM: hint.name), soundServerRuns: soundServerRuns),
                  let formats = try? ALSAPCM.formats(of: hint.name, in: configuration), !formats.isEmpty
            else { return nil }
            return lock.withLock {
                let key = "\(files ?? "")\n\(hint.name)"
                if let microphone = known[key], microphone.isConnected, microphone.formats == formats { return microphone }
                let microphone = ALSAMicrophone(hint: hint, formats: formats, configurationFiles: files)
                known[key] = microphone
                return microphone
            }
        }
    }

    /// Whether the rules list a hint whose definition has `type`.
    static func isListed(_ hint: ALSAHint, type: String?, soundServerRuns: Bool) -> Bool {
        guard hint.canCapture, hint.name != "null", let type, !skippedTypes.contains(type) else { return false }
        if hint.name.contains("CARD=") { return !soundServerRuns && hint.name.hasPrefix("hw:") }
        return true
    }

    /// libasound's PCM name hints, from the process's configuration.
    static func hints() -> [ALSAHint] {
        calsa_silence_errors()
        var list: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &list) >= 0, let list else { return [] }
        defer { snd_device_name_free_hint(list) }
        var hints: [ALSAHint] = []
        var entry = list
        while let hint = entry.pointee {
            func value(_ id: String) -> String? {
                guard let text = snd_device_name_get_hint(hint, id) else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
            if let name = value("NAME") {
                hints.append(ALSAHint(name: name, description: value("DESC") ?? name, direction: value("IOID")))
            }
            entry += 1
        }
        return hints
    }
}

/// One of libasound's PCM name hints.
package struct ALSAHint: Hashable, Sendable {
    /// The PCM name to open (`hw:CARD=Device,DEV=0`, `default`, `mymic`).
    package var name: String
    /// The description: the first line says what it is ("USB Audio Device, USB Audio"), a second
    /// one, when present, how it is reached.
    package var description: String
    /// `Input` or `Output` for one-way PCMs; nil for those that do both.
    package var direction: String?

    /// A hint.
    package init(name: String, description: String, direction: String? = nil) {
        self.name = name
        self.description = description
        self.direction = direction
    }

    /// Whether the PCM can capture.
    var canCapture: Bool { direction == nil || direction == "Input" }
}
