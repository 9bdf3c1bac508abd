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

    /// The device's backend, in its active format at its delivery frame duration.
    override var captureSource: CaptureSource? {
        CaptureSource(backend: device.backend, format: device.activeFormat.captureFormat,
                      frameDuration: device.deliveryFrameDuration, device: device)
    }

    /// A description for debugging.
    public override var description: String { "<AVCaptureDeviceInput: \(device.localizedName)>" }
}
