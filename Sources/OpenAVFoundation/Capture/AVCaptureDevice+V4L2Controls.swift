import CaptureDevices

extension AVCaptureDevice {
    /// The V4L2 camera's device node (`"/dev/video0"`); nil for devices that are not V4L2
    /// cameras.
    ///
    /// Linux addition: Apple has no device paths. `openav record --video /dev/video0` finds a
    /// camera by it.
    public var v4l2DevicePath: String? { (backend as? V4L2Camera)?.path }

    /// The V4L2 camera's driver controls with their current values, in the driver's order;
    /// empty for devices that are not V4L2 cameras, and for a camera that is gone.
    ///
    /// Linux addition: the controls Apple's API has no name for (brightness, contrast,
    /// saturation, hue, flips…) besides those it maps (focus, exposure, gain as ISO, white
    /// balance, zoom, torch), read from the driver each time.
    public var v4l2Controls: [V4L2Control] {
        guard let camera = backend as? V4L2Camera, let controls = try? camera.driverControls() else { return [] }
        return controls.map { control in
            V4L2Control(control, value: control.isWriteOnly ? 0 : (try? camera.value(of: control.id)) ?? control.defaultValue)
        }
    }

    /// Sets a V4L2 camera's driver control by its `v4l2-ctl` name (a button control performs its
    /// action). Needs `lockForConfiguration()`, as Apple's controls do. Throws
    /// `AVError.deviceNotConnected` when the camera is gone, and `AVError.unknown` naming the
    /// reason when the device is not a V4L2 camera, has no such control, or its driver refuses
    /// the value (out of range, read-only, busy).
    ///
    /// Linux addition: Apple has no such method.
    public func setValue(_ value: Int, forV4L2ControlNamed name: String) throws {
        Misuse.check(holdsConfigurationLock, .v4l2ControlNotLockedForConfiguration)
        guard let camera = backend as? V4L2Camera else {
            throw AVError(.unknown, reason: "\(localizedName) is not a V4L2 camera: it has no control \(name)")
        }
        guard isConnected else { throw AVError(.deviceNotConnected, reason: "\(localizedName) is not connected") }
        do {
            try camera.setValue(Int64(value), ofControlNamed: name)
        } catch {
            throw AVError(error, at: .starting, device: self)
        }
    }
}
