/// The hardware discoveries of this platform, in listing order: cameras, then microphones,
/// then screens. (Linux: V4L2 `/dev/video*` capture nodes; PulseAudio sources, then ALSA PCMs,
/// whose sound cards are left to the server when it lists capture sources. X11 screens are
/// listed by `AVCaptureScreenInput`, not discovered.) A new backend adds its discovery here.
enum PlatformDiscoveries {
    /// The discoveries, in listing order.
    static let all: [any CaptureDeviceDiscovery.Type] = [V4L2Discovery.self, PulseAudioDiscovery.self, ALSADiscovery.self]
}

extension V4L2Discovery: CaptureDeviceDiscovery {
    package static func devices(after listed: [any CaptureDeviceBackend]) -> [any CaptureDeviceBackend] { cameras() }

    package static func startWatching() { V4L2HotPlug.startWatching() }

    package static func accessProblem(for kind: CaptureMediaKind) -> String? {
        guard kind == .video, case .denied(let message) = accessStatus() else { return nil }
        return message
    }
}

extension PulseAudioDiscovery: CaptureDeviceDiscovery {
    package static func devices(after listed: [any CaptureDeviceBackend]) -> [any CaptureDeviceBackend] { microphones() }
}

extension ALSADiscovery: CaptureDeviceDiscovery {
    /// The ALSA microphones, leaving the cards to a sound server listed before that records
    /// from them (one with a source that is not a monitor).
    package static func devices(after listed: [any CaptureDeviceBackend]) -> [any CaptureDeviceBackend] {
        microphones(soundServerRuns: listed.contains { ($0 as? PulseAudioMicrophone)?.isMonitor == false })
    }
}
