import Foundation
import OpenAVFoundation

/// Remembers the runtime error a session posts while it starts, for the capture commands' messages.
final class StartErrorWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var token: NSObjectProtocol?
    private var stored: AVError?

    init(_ session: AVCaptureSession) {
        token = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification,
                                                       object: session, queue: nil) { [weak self] notification in
            guard let self else { return }
            lock.withLock { stored = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// The error posted, if any.
    var error: AVError? { lock.withLock { stored } }
}
