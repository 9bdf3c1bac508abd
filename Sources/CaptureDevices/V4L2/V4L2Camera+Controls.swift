import CV4L2

extension V4L2Camera {
    /// The camera's controls (`V4L2Control`), in the driver's order. Works running or not: the
    /// node is opened for the call (V4L2 allows several opens; control values belong to the
    /// device, not to an open file).
    package func driverControls() throws(CaptureDeviceError) -> [V4L2Control] {
        V4L2Control.all(of: try V4L2Node(path: path))
    }

    /// The control with `v4l2-ctl`'s name (`"brightness"`, `"horizontal_flip"`), or nil.
    package func control(named name: String) throws(CaptureDeviceError) -> V4L2Control? {
        try driverControls().first { $0.name == name }
    }

    /// A control's current value (`VIDIOC_G_CTRL`).
    package func value(of id: V4L2Control.ID) throws(CaptureDeviceError) -> Int64 {
        let node = try V4L2Node(path: path)
        var control = v4l2_control(id: id.rawValue, value: 0)
        try node.perform(cv4l2_g_ctrl(), &control, "VIDIOC_G_CTRL \(id.rawValue)")
        return Int64(control.value)
    }

    /// Sets a control (`VIDIOC_S_CTRL`); for a button, performs its action. Throws when the
    /// driver refuses the value (out of range, read-only, or busy while streaming).
    package func setValue(_ value: Int64, of id: V4L2Control.ID) throws(CaptureDeviceError) {
        guard let value32 = Int32(exactly: value) else {
            throw CaptureDeviceError(.failed, "\(value) does not fit control \(id.rawValue) of \(path)")
        }
        let node = try V4L2Node(path: path)
        var control = v4l2_control(id: id.rawValue, value: value32)
        try node.perform(cv4l2_s_ctrl(), &control, "VIDIOC_S_CTRL \(id.rawValue) = \(value)")
    }

    /// The current value of the control with `v4l2-ctl`'s name.
    package func value(ofControlNamed name: String) throws(CaptureDeviceError) -> Int64 {
        try value(of: try identifier(of: name))
    }

    /// Sets the control with `v4l2-ctl`'s name.
    package func setValue(_ value: Int64, ofControlNamed name: String) throws(CaptureDeviceError) {
        try setValue(value, of: try identifier(of: name))
    }

    /// The identifier of a named control; an error listing the names there are when none has it.
    private func identifier(of name: String) throws(CaptureDeviceError) -> V4L2Control.ID {
        let all = try driverControls()
        guard let control = all.first(where: { $0.name == name }) else {
            throw CaptureDeviceError(.failed, "\(localizedName) has no control \(name); it has "
                + all.map(\.name).joined(separator: ", "))
        }
        return control.id
    }
}
