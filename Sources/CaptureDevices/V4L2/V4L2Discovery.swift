import CV4L2
import Foundation

/// Finds the V4L2 cameras of this machine: the `/dev/video*` nodes that capture video.
///
/// Each node is opened and asked `VIDIOC_QUERYCAP`; its `device_caps` (the node's own
/// capabilities, not the whole device's) must include single-planar video capture and
/// streaming, so metadata nodes (a UVC camera's second node), output, radio and
/// multi-planar-only nodes are skipped, as are capture nodes offering no format the backend can
/// convert. Nodes that cannot be opened are not listed (`accessStatus()` says whether that is
/// a permission problem). The same camera object is returned for a `uniqueID` by every
/// discovery while it stays at its node, so a running camera stays the one listed.
package enum V4L2Discovery {
    /// The directory holding the device nodes.
    static let deviceDirectory = "/dev"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: V4L2Camera] = [:]
    /// Whether a listing has been made: cameras found after the first were plugged in.
    nonisolated(unsafe) private static var hasListed = false

    /// The capture-capable cameras now present, in node order (`video0`, `video1`, … `video10`).
    ///
    /// Each listing also reconciles the cameras' connection with what it found, and reports the
    /// changes to `CaptureDeviceRegistry.connectionChanged`: a camera no longer found is
    /// disconnected, a known camera answering again is connected again, and a camera new since
    /// the first listing was plugged in (hot-plug calls this on every `/dev/video*` change).
    package static func cameras() -> [V4L2Camera] {
        var cameras: [V4L2Camera] = []
        var changed: [V4L2Camera] = []
        var seen: [String: Int] = [:]
        let probes = nodePaths().compactMap { path in probe(path: path).map { (path, $0) } }
        lock.withLock {
            for (path, found) in probes {
                // Several capture nodes of one device (one bus position) get `#2`, `#3`, … in node order.
                let count = (seen[found.uniqueID] ?? 0) + 1
                seen[found.uniqueID] = count
                let uniqueID = count == 1 ? found.uniqueID : "\(found.uniqueID)#\(count)"
                if let camera = known[uniqueID], camera.path == path, camera.formats == found.formats.map({ .video($0) }) {
                    if camera.markConnected(true) { changed.append(camera) }
                    cameras.append(camera)
                    continue
                }
                // A camera at a new node, or with new formats, is another camera: the old one is gone.
                if let old = known[uniqueID], old.markConnected(false) { changed.append(old) }
                let camera = V4L2Camera(path: path, uniqueID: uniqueID, modelID: found.modelID,
                                        localizedName: found.name, manufacturer: found.manufacturer, formats: found.formats,
                                        driverControls: found.controls)
                known[uniqueID] = camera
                if hasListed { changed.append(camera) }
                cameras.append(camera)
            }
            for camera in known.values where !cameras.contains(where: { $0 === camera }) && camera.markConnected(false) {
                changed.append(camera)
            }
            hasListed = true
        }
        for camera in changed { CaptureDeviceRegistry.connectionChanged(camera) }
        return cameras
    }

    /// What a capture node says about itself.
    struct Probe {
        var uniqueID: String
        var modelID: String
        var name: String
        var manufacturer: String
        var formats: [CaptureVideoFormat]
        var controls: [V4L2Control]
    }

    /// The node's identity and formats, or nil when it cannot be opened, does not capture
    /// single-planar video with streaming, or offers no format the backend takes.
    static func probe(path: String) -> Probe? {
        guard let node = try? V4L2Node(path: path), let capability = try? node.capability() else { return nil }
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
            ? capability.device_caps : capability.capabilities
        let needed = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
        guard caps & needed == needed else { return nil }
        let controls = V4L2Control.all(of: node)
        let formats = V4L2CameraControls.formats(V4L2FormatEnumeration.formats(of: node), withRangesOf: controls)
        guard !formats.isEmpty else { return nil }
        let driver = v4l2String(capability.driver)
        let card = v4l2String(capability.card)
        let bus = v4l2String(capability.bus_info)
        return Probe(uniqueID: "\(bus):\(driver):\(card)", modelID: "\(driver):\(card)", name: card,
                     manufacturer: usbManufacturer(path: path) ?? driver, formats: formats, controls: controls)
    }

    /// The `/dev/video*` nodes, in numeric order.
    static func nodePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, "\(deviceDirectory)/\(name)")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The USB manufacturer string of the device a node belongs to (sysfs), when it is on USB.
    static func usbManufacturer(path: String) -> String? {
        let node = (path as NSString).lastPathComponent
        let file = "/sys/class/video4linux/\(node)/device/../manufacturer"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Whether this user may open the cameras: `.denied` with a message naming the `video` group
    /// when a `/dev/video*` node refuses this user (`EACCES`), `.granted` otherwise (also when
    /// there is no node). What `AVCaptureDevice.authorizationStatus(for: .video)` can answer from.
    package static func accessStatus() -> V4L2Access {
        for path in nodePaths() {
            let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            let code = errno
            if descriptor >= 0 {
                close(descriptor)
            } else if code == EACCES || code == EPERM {
                return .denied(V4L2Node.openError(path: path, errno: code).message)
            }
        }
        return .granted
    }
}

/// Whether the user may use the V4L2 cameras (`V4L2Discovery.accessStatus()`).
package enum V4L2Access: Equatable, Sendable {
    /// Every camera node this user can see opens.
    case granted
    /// A camera node refuses this user; the message says how to fix it (the `video` group).
    case denied(String)
}
