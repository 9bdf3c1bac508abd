import Foundation
import HostSystem
import OpenAVFoundation

/// Remembers the runtime error a session posts while it starts, for the capture commands' messages.
final class StartErrorWatcher: @unchecked Sendable {
    private var token: NSObjectProtocol?
    @Locked private var stored: AVError? = nil

    init(_ session: AVCaptureSession) {
        token = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification,
                                                       object: session, queue: nil) { [weak self] notification in
            guard let self else { return }
            stored = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// The error posted, if any.
    var error: AVError? { stored }
}
