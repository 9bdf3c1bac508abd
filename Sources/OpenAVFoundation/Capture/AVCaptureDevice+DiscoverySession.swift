import Foundation

extension AVCaptureDevice {
    /// Finds the capture devices of some types, for a media type, at a position.
    ///
    /// Differs from Apple: `devices` is listed afresh on each read (no KVO), hardware first.
    public final class DiscoverySession: NSObject, @unchecked Sendable {
        private let deviceTypes: [DeviceType]
        private let mediaType: AVMediaType?
        private let position: Position

        /// A discovery of devices of `deviceTypes`, delivering `mediaType` (nil: any), at
        /// `position` (`.unspecified`: any).
        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
        }

        /// The sets of the found devices that a multi-camera session can run together: none,
        /// there is no multi-camera session here (Apple's `AVCaptureMultiCamSession`).
        public var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] { [] }

        /// The devices found: hardware first, then virtual devices.
        public var devices: [AVCaptureDevice] {
            let wanted = Set(deviceTypes.map(\.canonical))
            return AVCaptureDevice.listed().filter { device in
                wanted.contains(device.deviceType.canonical)
                    && (mediaType.map(device.hasMediaType) ?? true)
                    && (position == .unspecified || device.position == position)
            }
        }
    }
}
