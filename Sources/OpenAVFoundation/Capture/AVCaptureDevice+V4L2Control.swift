import CaptureDevices

extension AVCaptureDevice {
    /// One driver control of a V4L2 camera (brightness, contrast, saturation, hue, gain,
    /// flips, power-line frequency, sharpness, the driver's own…), as
    /// `AVCaptureDevice.v4l2Controls` lists it.
    ///
    /// Linux addition: Apple has no such type. Names are those `v4l2-ctl --list-ctrls` shows;
    /// only controls whose value is one integer are listed (integers, booleans, menus, bitmasks
    /// and buttons).
    public struct V4L2Control: Sendable, Hashable {
        /// The control's name as `v4l2-ctl` spells it (`"brightness"`, `"horizontal_flip"`).
        public let name: String
        /// The driver's own name for the control (`"Horizontal Flip"`).
        public let localizedName: String
        /// The smallest value.
        public let minimum: Int
        /// The largest value.
        public let maximum: Int
        /// The step between values, counted from `minimum`.
        public let step: Int
        /// The value the driver resets the control to.
        public let defaultValue: Int
        /// The current value (0 for write-only controls such as buttons).
        public let value: Int
        /// For menu controls, the items' names by value (an integer menu's items as text);
        /// empty for other controls.
        public let menuItems: [Int: String]
        /// Whether the value can only be read.
        public let isReadOnly: Bool
        /// Whether the control has no effect now (such as `gain` while `gain_automatic` is on).
        public let isInactive: Bool

        /// The public form of a driver control with its current value.
        init(_ control: CaptureDevices.V4L2Control, value: Int64) {
            name = control.name
            localizedName = control.label
            minimum = Int(control.minimum)
            maximum = Int(control.maximum)
            step = Int(control.step)
            defaultValue = Int(control.defaultValue)
            self.value = Int(value)
            menuItems = Dictionary(uniqueKeysWithValues: control.menuItems.map { (Int($0.key), $0.value) })
            isReadOnly = control.isReadOnly
            isInactive = control.isInactive
        }
    }
}
