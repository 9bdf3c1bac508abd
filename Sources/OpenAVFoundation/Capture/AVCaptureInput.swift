import Foundation

/// The abstract base of capture session inputs: a source of media with one port per stream.
public class AVCaptureInput: NSObject, @unchecked Sendable {
    let inputLock = NSLock()
    private weak var sessionStorage: AVCaptureSession?

    override init() { super.init() }

    /// The streams the input provides, one port each.
    public var ports: [Port] { [] }

    /// The session the input was added to (guarded by `inputLock`).
    var session: AVCaptureSession? {
        get { inputLock.withLock { sessionStorage } }
        set { inputLock.withLock { sessionStorage = newValue } }
    }
}
