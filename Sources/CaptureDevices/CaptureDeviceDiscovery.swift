/// One platform backend's discovery, all the registry asks of it: the devices present now,
/// watching for hot-plug, and whether this user may use them. The platforms' discoveries are
/// listed in `PlatformDiscoveries`; the registry names none of them.
package protocol CaptureDeviceDiscovery {
    /// The devices present now, in listing order; `listed` holds what the discoveries before
    /// this one found (the ALSA discovery leaves sound cards to a sound server that lists
    /// capture sources).
    static func devices(after listed: [any CaptureDeviceBackend]) -> [any CaptureDeviceBackend]

    /// Starts reporting plug-ins and unplugs to `CaptureDeviceRegistry.connectionChanged(_:)`,
    /// once; discoveries whose listing is fresh every time have nothing to watch.
    static func startWatching()

    /// Why this user may not use the backend's devices of a kind (a camera node that cannot be
    /// opened), or nil when nothing refuses them.
    static func accessProblem(for kind: CaptureMediaKind) -> String?
}

extension CaptureDeviceDiscovery {
    /// Nothing to watch.
    package static func startWatching() {}
    /// Nothing refuses this user.
    package static func accessProblem(for kind: CaptureMediaKind) -> String? { nil }
}
