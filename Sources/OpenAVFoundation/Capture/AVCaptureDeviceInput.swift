import Foundation

/// A capture input that provides media from a capture device, with one port for its media type.
public final class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    /// The device the input provides media from.
    public let device: AVCaptureDevice
    private var portStorage: [Port] = []

    /// An input for a device; throws `AVError.deviceNotConnected` when the device is gone.
    public init(device: AVCaptureDevice) throws {
        guard device.isConnected else {
            throw AVError(.deviceNotConnected, reason: "\(device.localizedName) is not connected")
        }
        self.device = device
        super.init()
        portStorage = [Port(input: self, mediaType: device.mediaType) { [device] in
            device.activeFormat.formatDescription
        }]
    }

    /// The input's ports: one, of the device's media type.
    public override var ports: [Port] { portStorage }

    /// The input's ports of a media type (nil: any), from a source device type (nil: any) at a
    /// position (`.unspecified`: any). No device here is made of several cameras, so these are
    /// among `ports`: on Apple platforms the method also finds the ports of a virtual device's
    /// constituent cameras.
    public func ports(for mediaType: AVMediaType?, sourceDeviceType: AVCaptureDevice.DeviceType?,
                      sourceDevicePosition: AVCaptureDevice.Position) -> [Port] {
        ports.filter { port in
            (mediaType.map { $0 == port.mediaType } ?? true)
                && (sourceDeviceType.map { $0.canonical == port.sourceDeviceType?.canonical } ?? true)
                && (sourceDevicePosition == .unspecified || sourceDevicePosition == port.sourceDevicePosition)
        }
    }

    /// The device's backend, in its active format at its delivery frame duration.
    override var captureSource: CaptureSource? {
        CaptureSource(backend: device.backend, format: device.activeFormat.captureFormat,
                      frameDuration: device.deliveryFrameDuration, device: device)
    }

    /// A description for debugging.
    public override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}
