import Foundation
import HostSystem

/// Lists the capture devices of this machine: hardware first (the platform's discoveries,
/// `PlatformDiscoveries`, in order), then the built-in virtual devices, filtered by
/// `DeviceSelection`.
package enum CaptureDeviceRegistry {
    /// Why this user may not use the hardware of a kind, or nil when nothing refuses them (a V4L2
    /// camera node that cannot be opened, with a message naming the `video` group).
    package static func accessProblem(for kind: CaptureMediaKind) -> String? {
        PlatformDiscoveries.all.lazy.compactMap { $0.accessProblem(for: kind) }.first
    }

    /// The built-in virtual devices, made once so that every listing returns the same objects,
    /// and the file camera and microphone `OPENAV_FILE_CAMERA` and `OPENAV_FILE_MICROPHONE` ask for.
    package static let virtualDevices: [any CaptureDeviceBackend] = [TestPatternCamera(), TestToneMicrophone()]
        + FileCamera.fromEnvironment() + FileMicrophone.fromEnvironment()

    /// The virtual devices added with `addVirtualDevice(_:)`.
    private static let addedVirtualDevices = Locked<[any CaptureDeviceBackend]>([])

    /// Lists a further virtual device after the built-in ones (a second camera, for tests of
    /// camera switching), and tells connection observers it appeared.
    package static func addVirtualDevice(_ device: any CaptureDeviceBackend) {
        addedVirtualDevices.withLock { $0.append(device) }
        connectionChanged(device)
    }

    /// Stops listing a device added with `addVirtualDevice(_:)`.
    package static func removeVirtualDevice(_ device: any CaptureDeviceBackend) {
        addedVirtualDevices.withLock { devices in devices.removeAll { $0 === device } }
    }

    /// The devices a selection lists: hardware first, then virtual (built-in, then added).
    package static func devices(for selection: DeviceSelection) -> [any CaptureDeviceBackend] {
        var devices: [any CaptureDeviceBackend] = []
        if selection.includesHardware {
            for discovery in PlatformDiscoveries.all { devices += discovery.devices(after: devices) }
        }
        if selection.includesVirtual { devices += virtualDevices + addedVirtualDevices.withLock { $0 } }
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

    // MARK: Connection changes

    /// Learns that a device was unplugged (`isConnected` false) or plugged in, new or again.
    /// Called on the thread that noticed the change; it must not call back into the device.
    package typealias ConnectionObserver = @Sendable (_ device: any CaptureDeviceBackend, _ isConnected: Bool) -> Void

    private static let connectionObservers = ConnectionObservers()

    /// Calls `observer` after every connection change a backend reports, until the returned
    /// observation is cancelled. The first observer starts the discoveries' hot-plug watching,
    /// before it is added.
    package static func addConnectionObserver(_ observer: @escaping ConnectionObserver) -> ConnectionObservation {
        for discovery in PlatformDiscoveries.all { discovery.startWatching() }
        return connectionObservers.add(observer)
    }

    /// Reports that a device's `isConnected` changed: the one call every backend makes when it
    /// notices an unplug or a plug-in (the virtual camera's simulated unplug; V4L2 hot-plug).
    package static func connectionChanged(_ device: any CaptureDeviceBackend) {
        let isConnected = device.isConnected
        for observer in connectionObservers.current { observer(device, isConnected) }
    }

    /// A registered connection observer; `cancel()` removes it.
    package final class ConnectionObservation: Sendable {
        private let id: Int
        private let observers: ConnectionObservers

        fileprivate init(id: Int, observers: ConnectionObservers) {
            self.id = id
            self.observers = observers
        }

        /// Stops calling the observer.
        package func cancel() {
            observers.remove(id)
        }
    }

    /// The observers, behind a lock.
    fileprivate final class ConnectionObservers: @unchecked Sendable {
        /// The observers with their IDs, and the last ID given.
        private struct State {
            var observers: [(id: Int, observer: ConnectionObserver)] = []
            var nextID = 0
        }

        private let state = Locked(State())

        var current: [ConnectionObserver] { state.withLock { $0.observers.map(\.observer) } }

        func add(_ observer: @escaping ConnectionObserver) -> ConnectionObservation {
            let id = state.withLock { s -> Int in
                s.nextID += 1
                s.observers.append((s.nextID, observer))
                return s.nextID
            }
            return ConnectionObservation(id: id, observers: self)
        }

        func remove(_ id: Int) {
            state.withLock { s in s.observers.removeAll { $0.id == id } }
        }
    }
}
