import Foundation

extension AVCaptureDevice {
    /// How much the picture is magnified: its centre `1/videoZoomFactor` fills the frame
    /// (1 at first). Setting it needs the configuration lock and a factor from 1 to the active
    /// format's `videoMaxZoomFactor`; it stops a ramp and applies from the next frame.
    public var videoZoomFactor: CGFloat {
        get {
            let requested = requestedControls
            guard requested.zoomRate != nil, let state = controlState else { return CGFloat(requested.zoomFactor) }
            return CGFloat(state.zoomFactor)
        }
        set {
            requireZoomFactor(newValue, "videoZoomFactor")
            changeControls("videoZoomFactor") { settings in
                settings.zoomFactor = Double(newValue)
                settings.zoomRate = nil
            }
        }
    }

    /// Moves the zoom smoothly to a factor, `rate` powers of two a second. Needs the
    /// configuration lock and a factor from 1 to the active format's `videoMaxZoomFactor`.
    public func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) {
        requireZoomFactor(factor, "ramp(toVideoZoomFactor:withRate:)")
        changeControls("ramp(toVideoZoomFactor:withRate:)") { settings in
            settings.zoomFactor = Double(factor)
            settings.zoomRate = rate
        }
    }

    /// Stops a zoom ramp where it is. Needs the configuration lock.
    public func cancelVideoZoomRamp() {
        let reached = controlState?.zoomFactor ?? requestedControls.zoomFactor
        changeControls("cancelVideoZoomRamp()") { settings in
            settings.zoomFactor = reached
            settings.zoomRate = nil
        }
    }

    /// Whether a zoom ramp is under way.
    public var isRampingVideoZoom: Bool { controlState?.isRampingZoom ?? false }

    /// The smallest zoom factor: 1.
    public var minAvailableVideoZoomFactor: CGFloat { 1 }

    /// The largest zoom factor: the active format's `videoMaxZoomFactor`.
    public var maxAvailableVideoZoomFactor: CGFloat { activeFormat.videoMaxZoomFactor }

    /// The zoom factors at which a virtual device switches between its cameras: none, no
    /// device here is made of several cameras.
    public var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] { [] }

    private func requireZoomFactor(_ factor: CGFloat, _ name: String) {
        Misuse.check(factor >= 1 && factor <= activeFormat.videoMaxZoomFactor, .zoomFactorOutOfRange(member: name))
    }
}
