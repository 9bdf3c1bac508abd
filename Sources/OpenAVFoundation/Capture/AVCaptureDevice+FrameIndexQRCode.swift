import CaptureDevices

extension AVCaptureDevice {
    /// Whether the Test Pattern Camera shows each frame's index (its `sequenceNumber`, from 0 at
    /// the start of a session) as a QR code in the bottom-right corner of its frames; false at
    /// first, always false for other devices. Setting it needs the configuration lock and takes
    /// effect from the next frame; setting it on another device is a programmer error.
    ///
    /// Linux addition: for testing code readers (`AVCaptureMetadataOutput` finds the code in
    /// every frame, its string the frame's index in decimal digits). The code takes a third of
    /// the picture's height (pictures at least 174 pixels high), over the colour ramp.
    public var showsFrameIndexQRCode: Bool {
        get { (backend as? TestPatternCamera)?.showsFrameIndexQRCode ?? false }
        set {
            Misuse.check(holdsConfigurationLock, .notLockedForConfiguration(property: "showsFrameIndexQRCode"))
            guard let camera = backend as? TestPatternCamera else { Misuse.fail(.frameIndexQRCodeNotSupported) }
            camera.showsFrameIndexQRCode = newValue
        }
    }
}
