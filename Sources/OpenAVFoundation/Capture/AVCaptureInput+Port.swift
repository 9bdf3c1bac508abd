import Foundation
import OpenCoreMedia

extension AVCaptureInput {
    /// One stream of an input, such as a camera's video, that connections link to outputs.
    public final class Port: NSObject, @unchecked Sendable {
        private let lock = NSLock()
        private weak var inputStorage: AVCaptureInput?
        private var enabled = true
        private let describe: @Sendable () -> CMFormatDescription?

        /// The media type of the stream.
        public let mediaType: AVMediaType

        init(input: AVCaptureInput, mediaType: AVMediaType, formatDescription: @escaping @Sendable () -> CMFormatDescription?) {
            inputStorage = input
            self.mediaType = mediaType
            describe = formatDescription
        }

        /// The input the port belongs to.
        public var input: AVCaptureInput {
            guard let input = lock.withLock({ inputStorage }) else {
                preconditionFailure("AVCaptureInput.Port used after its input was released")
            }
            return input
        }

        /// The format of the stream now (for a device input: its active format's).
        public var formatDescription: CMFormatDescription? { describe() }

        /// Whether media flows from the port into its connections; a change reroutes a running
        /// session's media at once.
        public var isEnabled: Bool {
            get { lock.withLock { enabled } }
            set {
                lock.withLock { enabled = newValue }
                lock.withLock { inputStorage }?.session?.applyIfRunning()
            }
        }

        /// The clock the port's timestamps are on: the host time clock.
        public var clock: CMClock? { CMClock.hostTimeClock }

        /// The type of the device the port's media comes from: its input's device's
        /// `deviceType`; nil for an input without a device (a screen).
        public var sourceDeviceType: AVCaptureDevice.DeviceType? {
            (lock.withLock { inputStorage } as? AVCaptureDeviceInput)?.device.deviceType
        }

        /// The position of the device the port's media comes from: its input's device's
        /// `position`; `.unspecified` for an input without a device (a screen).
        public var sourceDevicePosition: AVCaptureDevice.Position {
            (lock.withLock { inputStorage } as? AVCaptureDeviceInput)?.device.position ?? .unspecified
        }

        /// Whether the port belongs to `input` (without requiring the input to be alive).
        func belongs(to candidate: AVCaptureInput) -> Bool {
            lock.withLock { inputStorage === candidate }
        }
    }
}
