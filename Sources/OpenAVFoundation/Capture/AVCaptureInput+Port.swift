import Foundation
import HostSystem
import OpenCoreMedia

extension AVCaptureInput {
    /// One stream of an input, such as a camera's video, that connections link to outputs.
    public final class Port: NSObject, @unchecked Sendable {
        /// The input, held weakly (the input owns its ports), and whether the port is enabled.
        private struct State {
            weak var input: AVCaptureInput?
            var isEnabled = true
        }

        private let state: Locked<State>
        private let describe: @Sendable () -> CMFormatDescription?

        /// The media type of the stream.
        public let mediaType: AVMediaType

        init(input: AVCaptureInput, mediaType: AVMediaType, formatDescription: @escaping @Sendable () -> CMFormatDescription?) {
            state = Locked(State(input: input))
            self.mediaType = mediaType
            describe = formatDescription
        }

        /// The input the port belongs to.
        public var input: AVCaptureInput {
            guard let input = state.input else {
                Misuse.fail(.portOfReleasedInput)
            }
            return input
        }

        /// The format of the stream now (for a device input: its active format's).
        public var formatDescription: CMFormatDescription? { describe() }

        /// Whether media flows from the port into its connections; a change reroutes a running
        /// session's media at once.
        public var isEnabled: Bool {
            get { state.isEnabled }
            set {
                state.isEnabled = newValue
                state.input?.session?.applyIfRunning()
            }
        }

        /// The clock the port's timestamps are on: the host time clock.
        public var clock: CMClock? { CMClock.hostTimeClock }

        /// The type of the device the port's media comes from: its input's device's
        /// `deviceType`; nil for an input without a device (a screen).
        public var sourceDeviceType: AVCaptureDevice.DeviceType? {
            (state.input as? AVCaptureDeviceInput)?.device.deviceType
        }

        /// The position of the device the port's media comes from: its input's device's
        /// `position`; `.unspecified` for an input without a device (a screen).
        public var sourceDevicePosition: AVCaptureDevice.Position {
            (state.input as? AVCaptureDeviceInput)?.device.position ?? .unspecified
        }

        /// Whether the port belongs to `input` (without requiring the input to be alive).
        func belongs(to candidate: AVCaptureInput) -> Bool {
            state.input === candidate
        }
    }
}
