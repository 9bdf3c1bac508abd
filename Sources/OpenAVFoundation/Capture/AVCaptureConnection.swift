import Foundation

/// A link from input ports to an output in a capture session; sessions form them automatically.
///
/// Differs from Apple, for now: `videoOrientation`, `isVideoMirrored` and
/// `automaticallyAdjustsVideoMirroring` are stored only; buffers are delivered as the device
/// produces them.
public final class AVCaptureConnection: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private weak var outputStorage: AVCaptureOutput?
    private var enabled = true
    private var orientation = AVCaptureVideoOrientation.landscapeRight
    private var mirrored = false
    private var adjustsMirroring = true

    /// The ports media comes from.
    public let inputPorts: [AVCaptureInput.Port]

    /// The levels of the audio channels flowing through the connection, one per channel of its
    /// audio port's format when the connection was made (empty for video).
    public let audioChannels: [AVCaptureAudioChannel]

    /// A connection from ports to an output, for `AVCaptureSession.addConnection(_:)`.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        inputPorts = ports
        outputStorage = output
        let channels = ports.first { $0.mediaType == .audio }?.formatDescription?.audioStreamBasicDescription?.mChannelsPerFrame ?? 0
        audioChannels = (0..<Int(channels)).map { _ in AVCaptureAudioChannel() }
    }

    /// The output media goes to.
    public var output: AVCaptureOutput? { lock.withLock { outputStorage } }

    /// Whether media flows through the connection.
    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }

    /// Whether the connection is enabled, its ports too, and its output is in a session.
    public var isActive: Bool {
        isEnabled && inputPorts.allSatisfy(\.isEnabled) && output?.session != nil
    }

    /// The orientation of the video (stored only, for now).
    public var videoOrientation: AVCaptureVideoOrientation {
        get { lock.withLock { orientation } }
        set { lock.withLock { orientation = newValue } }
    }

    /// Whether the video is mirrored horizontally (stored only, for now).
    public var isVideoMirrored: Bool {
        get { lock.withLock { mirrored } }
        set { lock.withLock { mirrored = newValue } }
    }

    /// Whether mirroring follows the camera's position (stored only, for now).
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { lock.withLock { adjustsMirroring } }
        set { lock.withLock { adjustsMirroring = newValue } }
    }

    /// The media types of the connection's ports.
    var mediaTypes: [AVMediaType] { inputPorts.map(\.mediaType) }

    /// Whether a port of the connection belongs to `input`.
    func comes(from input: AVCaptureInput) -> Bool {
        inputPorts.contains { $0.belongs(to: input) }
    }
}
