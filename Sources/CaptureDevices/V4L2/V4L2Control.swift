import CV4L2

/// One control a V4L2 camera offers (`VIDIOC_QUERYCTRL`): brightness, gain, flips, focus and
/// the driver's own, with its type, range and default.
///
/// Only controls whose value is one integer are listed (integer, boolean, menu, integer menu,
/// bitmask and button controls); 64-bit, string and compound controls and control-class
/// headings are left out. Read and set them through `V4L2Camera`'s `value(of:)` and
/// `setValue(_:of:)` (or the `…Named:` variants).
package struct V4L2Control: Hashable, Sendable, CustomStringConvertible {
    /// A control identifier (`V4L2_CID_…`), with the ones Apple's camera controls map to.
    package struct ID: RawRepresentable, Hashable, Sendable {
        /// The `V4L2_CID_…` value.
        package let rawValue: UInt32
        /// A control identifier.
        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `V4L2_CID_BRIGHTNESS`.
        package static let brightness = ID(rawValue: UInt32(V4L2_CID_BRIGHTNESS))
        /// `V4L2_CID_CONTRAST`.
        package static let contrast = ID(rawValue: UInt32(V4L2_CID_CONTRAST))
        /// `V4L2_CID_SATURATION`.
        package static let saturation = ID(rawValue: UInt32(V4L2_CID_SATURATION))
        /// `V4L2_CID_HUE`.
        package static let hue = ID(rawValue: UInt32(V4L2_CID_HUE))
        /// `V4L2_CID_AUTOGAIN`: automatic gain on (1) or off (0).
        package static let autoGain = ID(rawValue: UInt32(V4L2_CID_AUTOGAIN))
        /// `V4L2_CID_GAIN` (Apple: `iso`).
        package static let gain = ID(rawValue: UInt32(V4L2_CID_GAIN))
        /// `V4L2_CID_HFLIP`: the picture mirrored left to right (Apple: `isVideoMirrored`).
        package static let horizontalFlip = ID(rawValue: UInt32(V4L2_CID_HFLIP))
        /// `V4L2_CID_VFLIP`: the picture upside down.
        package static let verticalFlip = ID(rawValue: UInt32(V4L2_CID_VFLIP))
        /// `V4L2_CID_AUTO_WHITE_BALANCE` (Apple: `whiteBalanceMode`).
        package static let autoWhiteBalance = ID(rawValue: UInt32(V4L2_CID_AUTO_WHITE_BALANCE))
        /// `V4L2_CID_WHITE_BALANCE_TEMPERATURE`, in kelvin (Apple: temperature and tint).
        package static let whiteBalanceTemperature = ID(rawValue: UInt32(V4L2_CID_WHITE_BALANCE_TEMPERATURE))
        /// `V4L2_CID_EXPOSURE_AUTO`, a menu (Apple: `exposureMode`).
        package static let exposureAuto = ID(rawValue: UInt32(V4L2_CID_EXPOSURE_AUTO))
        /// `V4L2_CID_EXPOSURE_ABSOLUTE`, in 100 µs units (Apple: `exposureDuration`).
        package static let exposureAbsolute = ID(rawValue: UInt32(V4L2_CID_EXPOSURE_ABSOLUTE))
        /// `V4L2_CID_FOCUS_AUTO` (Apple: `focusMode`).
        package static let focusAuto = ID(rawValue: UInt32(V4L2_CID_FOCUS_AUTO))
        /// `V4L2_CID_FOCUS_ABSOLUTE` (Apple: `lensPosition`).
        package static let focusAbsolute = ID(rawValue: UInt32(V4L2_CID_FOCUS_ABSOLUTE))
        /// `V4L2_CID_ZOOM_ABSOLUTE` (Apple: `videoZoomFactor`).
        package static let zoomAbsolute = ID(rawValue: UInt32(V4L2_CID_ZOOM_ABSOLUTE))
        /// `V4L2_CID_FLASH_LED_MODE`, a menu: none, flash, torch (Apple: `torchMode`).
        package static let flashLEDMode = ID(rawValue: UInt32(V4L2_CID_FLASH_LED_MODE))
        /// `V4L2_CID_FLASH_TORCH_INTENSITY` (Apple: `torchLevel`).
        package static let flashTorchIntensity = ID(rawValue: UInt32(V4L2_CID_FLASH_TORCH_INTENSITY))
    }

    /// The kind of value a control holds.
    package enum Kind: String, Hashable, Sendable {
        /// A number in `minimum...maximum`, a multiple of `step` from `minimum`.
        case integer
        /// 0 or 1.
        case boolean
        /// One of `menuItems`' keys, named by its value.
        case menu
        /// One of `menuItems`' keys, each standing for an integer (shown as its value).
        case integerMenu
        /// Bits within `maximum`.
        case bitmask
        /// No value: setting any value performs an action (vivid's `disconnect`).
        case button
    }

    /// The control's identifier.
    package var id: ID
    /// The name `v4l2-ctl --list-ctrls` shows: the driver's name, lower case, words joined by
    /// `_` (`brightness`, `horizontal_flip`, `percentage_of_dropped_buffers`).
    package var name: String
    /// The driver's name (`"Horizontal Flip"`).
    package var label: String
    /// The kind of value.
    package var kind: Kind
    /// The smallest value.
    package var minimum: Int64
    /// The largest value.
    package var maximum: Int64
    /// The step between values.
    package var step: Int64
    /// The value after a reset.
    package var defaultValue: Int64
    /// Menu controls' items: value to name (for an integer menu, the integer as text).
    package var menuItems: [Int64: String]
    /// Whether the control can only be read.
    package var isReadOnly: Bool
    /// Whether the control can only be written (buttons).
    package var isWriteOnly: Bool
    /// Whether the control has no effect now (such as `gain` while `gain_automatic` is on).
    package var isInactive: Bool

    /// The control a `VIDIOC_QUERYCTRL` answer describes, with its menu items; nil for controls
    /// that are disabled, compound or not one integer.
    init?(query: v4l2_queryctrl, node: V4L2Node) {
        guard query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0 else { return nil }
        switch query.type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: kind = .integer
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: kind = .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: kind = .menu
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: kind = .integerMenu
        case V4L2_CTRL_TYPE_BITMASK.rawValue: kind = .bitmask
        case V4L2_CTRL_TYPE_BUTTON.rawValue: kind = .button
        default: return nil
        }
        id = ID(rawValue: query.id)
        label = v4l2String(query.name)
        name = Self.variableName(label)
        minimum = Int64(query.minimum)
        maximum = kind == .bitmask ? Int64(UInt32(bitPattern: query.maximum)) : Int64(query.maximum)
        step = Int64(query.step)
        defaultValue = Int64(query.default_value)
        isReadOnly = query.flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0
        isWriteOnly = query.flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0
        isInactive = query.flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0
        menuItems = [:]
        if kind == .menu || kind == .integerMenu, minimum <= maximum {
            for index in minimum...maximum {
                var item = v4l2_querymenu()
                item.id = query.id
                item.index = UInt32(index)
                guard node.control(cv4l2_querymenu(), &item) == nil else { continue }
                menuItems[index] = kind == .menu ? v4l2String(item.name) : String(item.value)
            }
        }
    }

    /// `v4l2-ctl`'s spelling of a control name: lower-case letters and digits, each run of other
    /// characters between them one `_`.
    static func variableName(_ label: String) -> String {
        var name = ""
        var separate = false
        for character in label.unicodeScalars {
            if character.properties.isAlphabetic && character.isASCII || ("0"..."9").contains(character) {
                if separate { name += "_" }
                separate = false
                name.unicodeScalars.append(contentsOf: String(character).lowercased().unicodeScalars)
            } else if !name.isEmpty {
                separate = true
            }
        }
        return name
    }

    /// Every listed control of a node, in the driver's order (`V4L2_CTRL_FLAG_NEXT_CTRL`).
    static func all(of node: V4L2Node) -> [V4L2Control] {
        var controls: [V4L2Control] = []
        var query = v4l2_queryctrl()
        query.id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        while node.control(cv4l2_queryctrl(), &query) == nil {
            if let control = V4L2Control(query: query, node: node) { controls.append(control) }
            query.id |= UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        }
        return controls
    }

    package var description: String {
        "\(name) (\(kind.rawValue)) \(minimum)...\(maximum) default \(defaultValue)"
    }
}
