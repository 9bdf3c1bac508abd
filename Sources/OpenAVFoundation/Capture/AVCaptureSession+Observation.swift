import Foundation

extension AVCaptureSession {
    /// Observes a property (`isRunning`, `isInterrupted`), as key-value observing does on Apple
    /// platforms; reports run on the thread that started or stopped the session. Keep the
    /// returned observation as long as reports are wanted.
    public func observe<Value>(_ keyPath: KeyPath<AVCaptureSession, Value>, options: NSKeyValueObservingOptions = [],
                               changeHandler: @escaping (AVCaptureSession, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation {
        observed.observers.observe(self, keyPath, options: options, changeHandler: changeHandler)
    }
}
