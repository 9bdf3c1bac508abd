import Foundation

/// Lists the capture devices of this machine: hardware first (one discovery per platform
/// backend), then the built-in virtual devices, filtered by `DeviceSelection`.
///
/// Backends are added to `hardwareDiscoveries` as they are written: V4L2 cameras now;
/// PulseAudio and ALSA microphones and X11 screens to come.
package enum CaptureDeviceRegistry {
    /// A platform backend's discovery: the devices present now.
    package typealias Discovery = @Sendable () -> [any CaptureDeviceBackend]

    /// Hardware discoveries, in listing order: cameras, then microphones, then screens.
    /// (V4L2: `/dev/video*` capture nodes; PulseAudio sources, else ALSA; X11 screens.)
    static let hardwareDiscoveries: [Discovery] = [{ V4L2Discovery.cameras() }]

    /// The built-in virtual devices, made once so that every listing returns the same objects.
    package static let virtualDevices: [any CaptureDeviceBackend] = [TestPatternCamera(), TestToneMicrophone()]

    /// The devices a selection lists: hardware first, then virtual.
    package static func devices(for selection: DeviceSelection) -> [any CaptureDeviceBackend] {
        var devices: [any CaptureDeviceBackend] = []
        if selection.includesHardware {
            for discovery in hardwareDiscoveries { devices += discovery() }
        }
        if selection.includesVirtual { devices += virtualDevices }
        return devices
    }

    /// The devices of one media kind a selection lists, hardware first.
    package static func devices(for selection: DeviceSelection, mediaKind: CaptureMediaKind) -> [any CaptureDeviceBackend] {
        devices(for: selection).filter { $0.mediaKind == mediaKind }
    }

    /// The devices the process environment's `OPENAV_CAPTURE_DEVICES` selects.
    package static func devices(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DeviceSelectionError) -> [any CaptureDeviceBackend] {
        devices(for: try DeviceSelection(environment: environment))
    }

    /// The device with a unique ID, among those the selection lists.
    package static func device(uniqueID: String, selection: DeviceSelection = .all) -> (any CaptureDeviceBackend)? {
        devices(for: selection).first { $0.uniqueID == uniqueID }
    }
}
