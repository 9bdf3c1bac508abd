import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Notices cameras plugged in and unplugged: watches `/dev` with inotify and, whenever a
/// `video*` node appears, disappears or changes its permissions (udev giving it to the `video`
/// group after creating it), lists the cameras again, which reports every connection change to
/// `CaptureDeviceRegistry.connectionChanged` (`V4L2Discovery.cameras()`).
///
/// Started once, by the first connection observer (`startWatching()`); the watching thread
/// then runs for the life of the process, blocked in `read` between changes.
enum V4L2HotPlug {
    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.V4L2HotPlug")

    /// Starts watching `/dev`, once; later calls do nothing. Lists the cameras first, so that a
    /// camera plugged in from now on is reported as new.
    static func startWatching() {
        _ = watcher
    }

    /// Whether the watching thread runs, started when first needed (false when inotify is
    /// unavailable).
    private static let watcher: Bool = {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            logger.warning("no camera hot-plug: inotify_init1 failed: \(String(cString: strerror(errno)))")
            return false
        }
        let mask = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        guard inotify_add_watch(descriptor, V4L2Discovery.deviceDirectory, mask) >= 0 else {
            logger.warning("no camera hot-plug: cannot watch \(V4L2Discovery.deviceDirectory): \(String(cString: strerror(errno)))")
            close(descriptor)
            return false
        }
        _ = V4L2Discovery.cameras()
        let thread = Thread { watch(descriptor) }
        thread.name = "OpenAV camera hot-plug"
        thread.start()
        return true
    }()

    /// Reads inotify events forever; lists the cameras after each batch naming a `video*` node.
    private static func watch(_ descriptor: Int32) {
        let size = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                logger.warning("camera hot-plug stopped: \(String(cString: strerror(errno)))")
                return
            }
            if namesVideoNode(UnsafeRawBufferPointer(start: buffer, count: count)) {
                _ = V4L2Discovery.cameras()
            }
        }
    }

    /// Whether a batch of `inotify_event`s names a `video*` node (or overflowed, losing names).
    static func namesVideoNode(_ events: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= events.count {
            let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
            let name = events[(offset + header)..<min(events.count, offset + header + length)].prefix { $0 != 0 }
            if name.starts(with: "video".utf8) { return true }
            offset += header + length
        }
        return false
    }
}
