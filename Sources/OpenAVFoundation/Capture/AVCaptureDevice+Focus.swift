import Foundation
import CaptureDevices

extension AVCaptureDevice {
    /// A value for `setFocusModeLocked(lensPosition:completionHandler:)`: lock the lens where it
    /// is.
    ///
    /// Differs from Apple: the sentinel's value here is -1.
    public static let currentLensPosition: Float = -1

    /// Whether the camera has a focus mode.
    public func isFocusModeSupported(_ focusMode: FocusMode) -> Bool {
        controlCapabilities.focusModes.contains(focusMode.captureMode)
    }

    /// How the camera focuses (`.continuousAutoFocus` at first). Setting `.autoFocus` starts one
    /// focus scan (again when set again); when it is done the mode reads `.locked`. Setting it
    /// needs `lockForConfiguration()` and a supported mode.
    public var focusMode: FocusMode {
        get {
            let requested = requestedControls
            return FocusMode(reportedMode(asked: requested.focusMode, single: .autoFocus, request: requested.focusScanRequest,
                                      locked: .locked, inEffect: \.focusMode))
        }
        set {
            Misuse.check(isFocusModeSupported(newValue), .focusModeNotSupported)
            changeControls("focusMode") { settings in
                settings.focusMode = newValue.captureMode
                if newValue == .autoFocus { settings.focusScanRequest = settings.generation + 1 }
                if newValue == .locked { settings.lensPosition = nil }
            }
        }
    }

    /// Whether `focusPointOfInterest` can be set.
    public var isFocusPointOfInterestSupported: Bool { controlCapabilities.focusPointOfInterest }

    /// Where to focus, from (0, 0) top left to (1, 1) bottom right of the unturned picture;
    /// it takes effect when a focus mode is set next. Setting it needs the configuration lock.
    /// The virtual camera's chart is flat, so every point focuses alike.
    public var focusPointOfInterest: CGPoint {
        get { requestedControls.focusPointOfInterest }
        set {
            Misuse.check(isFocusPointOfInterestSupported, .focusPointOfInterestNotSupported)
            changeControls("focusPointOfInterest") { $0.focusPointOfInterest = newValue }
        }
    }

    /// Whether the lens is moving to focus.
    public var isAdjustingFocus: Bool { controlState?.isAdjustingFocus ?? false }

    /// Where the lens is now, from 0 (nearest) to 1 (farthest). The virtual camera's chart is
    /// sharp at 0.8.
    public var lensPosition: Float { controlState?.lensPosition ?? 1 }

    /// Whether `setFocusModeLocked(lensPosition:completionHandler:)` can move the lens.
    public var isLockingFocusWithCustomLensPositionSupported: Bool {
        controlCapabilities.lockingFocusWithCustomLensPosition
    }

    /// Whether the camera can focus smoothly (slowly, for movies): false for the cameras here.
    public var isSmoothAutoFocusSupported: Bool { false }

    /// Whether automatic focus moves the lens smoothly: always false. Setting it needs the
    /// configuration lock; setting true while `isSmoothAutoFocusSupported` is false is a
    /// programmer error, as on Apple platforms.
    public var isSmoothAutoFocusEnabled: Bool {
        get { false }
        set {
            Misuse.check(holdsConfigurationLock, .notLockedForConfiguration(property: "isSmoothAutoFocusEnabled"))
            Misuse.check(!newValue || isSmoothAutoFocusSupported, .smoothAutoFocusNotSupported)
        }
    }

    /// Locks focus with the lens at `lensPosition` (0...1, or `currentLensPosition` for where it
    /// is); `handler` gets the time of the first frame taken with the lens there, on an
    /// arbitrary queue, handlers in the order given. Needs the configuration lock.
    public func setFocusModeLocked(lensPosition: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        Misuse.check(isLockingFocusWithCustomLensPositionSupported, .lockedLensPositionNotSupported)
        Misuse.check(lensPosition == Self.currentLensPosition || (0...1).contains(lensPosition), .lensPositionOutOfRange)
        changeControls("focusMode", completion: handler) { settings in
            settings.focusMode = .locked
            settings.lensPosition = lensPosition == Self.currentLensPosition ? nil : lensPosition
        }
    }
}

extension AVCaptureDevice.FocusMode {
    /// The device layer's mode.
    var captureMode: CaptureFocusMode {
        switch self {
        case .locked: .locked
        case .autoFocus: .autoFocus
        case .continuousAutoFocus: .continuousAutoFocus
        }
    }

    /// The mode of the device layer's mode.
    init(_ mode: CaptureFocusMode) {
        switch mode {
        case .locked: self = .locked
        case .autoFocus: self = .autoFocus
        case .continuousAutoFocus: self = .continuousAutoFocus
        }
    }
}
