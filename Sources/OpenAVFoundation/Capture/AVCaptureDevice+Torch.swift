import Foundation

extension AVCaptureDevice {
    /// A value for `setTorchModeOn(level:)`: the brightest the torch can be now (here, 1).
    public static let maxAvailableTorchLevel = Float.greatestFiniteMagnitude

    /// Whether the camera has a torch (the virtual camera has one: it lights the chart).
    public var hasTorch: Bool { controlCapabilities.hasTorch }

    /// Whether the torch can be used now.
    public var isTorchAvailable: Bool { hasTorch && isConnected }

    /// Whether the torch is lit in the latest frame.
    public var isTorchActive: Bool { (controlState?.torchLevel ?? 0) > 0 }

    /// The torch's level in the latest frame, from 0 (off) to 1.
    public var torchLevel: Float { controlState?.torchLevel ?? 0 }

    /// Whether the torch has a mode: `.off` and `.on` when there is a torch.
    public func isTorchModeSupported(_ torchMode: TorchMode) -> Bool {
        hasTorch && torchMode != .auto
    }

    /// The torch's mode (`.off` at first); `.on` is full level. Setting it needs the
    /// configuration lock and a supported mode.
    public var torchMode: TorchMode {
        get { requestedControls.torchLevel > 0 ? .on : .off }
        set {
            Misuse.check(isTorchModeSupported(newValue), .torchModeNotSupported)
            changeControls("torchMode") { $0.torchLevel = newValue == .on ? 1 : 0 }
        }
    }

    /// Turns the torch on at a level (above 0, up to 1, or `maxAvailableTorchLevel`). Needs the
    /// configuration lock; throws `AVError.deviceNotConnected` when the camera is gone.
    public func setTorchModeOn(level torchLevel: Float) throws {
        Misuse.check(isTorchModeSupported(.on), .torchNotSupported)
        Misuse.check(torchLevel > 0 && (torchLevel <= 1 || torchLevel == Self.maxAvailableTorchLevel), .torchLevelOutOfRange)
        guard isConnected else { throw AVError(.deviceNotConnected, reason: "\(localizedName) is not connected") }
        changeControls("torchMode") { $0.torchLevel = min(torchLevel, 1) }
    }

    /// Whether the camera has a flash for still images: false (no camera here has one).
    public var hasFlash: Bool { controlCapabilities.hasFlash }

    /// Whether the flash can be used now.
    public var isFlashAvailable: Bool { hasFlash && isConnected }

    /// Whether the flash is firing now: false, no camera here has a flash. Deprecated by Apple
    /// in favour of `AVCapturePhotoOutput.isFlashScene`.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's isFlashScene instead.")
    public var isFlashActive: Bool { false }

    /// Whether the camera's flash has a mode: only `.off`, no camera here has a flash.
    /// Deprecated by Apple in favour of `AVCapturePhotoOutput.supportedFlashModes`.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's supportedFlashModes instead.")
    public func isFlashModeSupported(_ flashMode: FlashMode) -> Bool {
        flashMode == .off
    }

    /// The flash mode of still images: always `.off`, no camera here has a flash. Setting it
    /// needs the configuration lock and a mode `isFlashModeSupported(_:)` accepts. Deprecated by
    /// Apple in favour of `AVCapturePhotoSettings.flashMode`.
    @available(*, deprecated, message: "Use AVCapturePhotoSettings.flashMode instead.")
    public var flashMode: FlashMode {
        get { .off }
        set {
            Misuse.check(holdsConfigurationLock, .notLockedForConfiguration(property: "flashMode"))
            Misuse.check(newValue == .off, .flashModeNotSupported)
        }
    }
}
