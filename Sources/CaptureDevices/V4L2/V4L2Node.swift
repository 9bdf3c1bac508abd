import CV4L2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One open V4L2 device node (`/dev/videoN`): owns the file descriptor, closes it exactly once,
/// and turns `ioctl` failures into `CaptureDeviceError`s that name the node and the request.
///
/// Opened non-blocking, so that `VIDIOC_DQBUF` answers `EAGAIN` instead of waiting (the stream
/// waits in `poll`). Used by one thread at a time.
final class V4L2Node {
    /// The node's path, for messages.
    let path: String
    /// The open file descriptor (-1 once closed).
    private(set) var descriptor: Int32

    /// Opens a node read-write; the error says why not (`EACCES`: not in the `video` group).
    init(path: String) throws(CaptureDeviceError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.openError(path: path, errno: errno) }
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Closes the node; requests after this fail with `EBADF`. Closing twice does nothing.
    func close() {
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// The error for a node that cannot be opened: denied access names the `video` group, a
    /// missing node is a disconnected device.
    static func openError(path: String, errno code: Int32) -> CaptureDeviceError {
        switch code {
        case EACCES, EPERM:
            CaptureDeviceError(.unavailable, "permission denied opening \(path): add the user to the `video` group "
                + "(sudo usermod -aG video $USER, then log in again)")
        case ENOENT, ENODEV, ENXIO:
            CaptureDeviceError(.disconnected, "\(path) is gone (\(Self.describe(code)))")
        case EBUSY:
            CaptureDeviceError(.busy, "\(path) is busy: another program is using the camera")
        default:
            CaptureDeviceError(.failed, "cannot open \(path): \(Self.describe(code))")
        }
    }

    /// Runs an ioctl on `value`; nil on success, else the `errno` it failed with.
    func control<Value>(_ request: UInt, _ value: inout Value) -> Int32? {
        withUnsafeMutablePointer(to: &value) { pointer in
            cv4l2_ioctl(descriptor, request, pointer) == 0 ? nil : errno
        }
    }

    /// Runs an ioctl on `value`, throwing an error naming `operation` when it fails (`ENODEV`:
    /// the device was unplugged).
    func perform<Value>(_ request: UInt, _ value: inout Value, _ operation: String) throws(CaptureDeviceError) {
        if let code = control(request, &value) { throw error(code, operation) }
    }

    /// The error for a failed request: `ENODEV`/`EIO` are a vanished device.
    func error(_ code: Int32, _ operation: String) -> CaptureDeviceError {
        let reason: CaptureDeviceError.Reason = switch code {
        case ENODEV, EIO, ENXIO: .disconnected
        case EBUSY: .busy
        case ENOMEM: .unavailable
        default: .failed
        }
        return CaptureDeviceError(reason, "\(operation) on \(path) failed: \(Self.describe(code))")
    }

    /// The capabilities, driver, card and bus of the node.
    func capability() throws(CaptureDeviceError) -> v4l2_capability {
        var capability = v4l2_capability()
        try perform(cv4l2_querycap(), &capability, "VIDIOC_QUERYCAP")
        return capability
    }

    /// `strerror` text of an `errno` value.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// `close(2)`, under a name the node's own `close()` does not hide.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// A fixed-size C character array (a V4L2 name field) as a Swift string, up to its first NUL.
func v4l2String<Tuple>(_ tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
