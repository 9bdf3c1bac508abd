import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// The abstract base of capture session inputs: a source of media with one port per stream.
public class AVCaptureInput: NSObject, @unchecked Sendable {
    /// The session, held weakly: the session owns its inputs.
    private struct SessionLink {
        weak var session: AVCaptureSession?
    }

    private let sessionLink = Locked(SessionLink())

    override init() { super.init() }

    /// The streams the input provides, one port each.
    public var ports: [Port] { [] }

    /// What a session starts when the input feeds an enabled connection: a capture device's
    /// backend with the format and frame duration to deliver.
    struct CaptureSource {
        /// The backend to start.
        let backend: any CaptureDeviceBackend
        /// The format to start it with.
        let format: CaptureFormat
        /// The frame duration to start it with (nil: the backend's default).
        let frameDuration: CMTime?
        /// The device, for errors' `AVErrorDeviceKey`; nil for inputs without one (screens).
        let device: AVCaptureDevice?

        /// Whether starting `other` would deliver the same as this.
        func isSame(as other: CaptureSource) -> Bool {
            backend === other.backend && format == other.format && frameDuration == other.frameDuration
        }
    }

    /// What the session starts for this input; nil for inputs it has nothing to start for.
    var captureSource: CaptureSource? { nil }

    /// The session the input was added to.
    var session: AVCaptureSession? {
        get { sessionLink.session }
        set { sessionLink.session = newValue }
    }
}
