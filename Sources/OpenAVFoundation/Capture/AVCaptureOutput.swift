import Foundation
import CaptureDevices
import HostSystem

/// The abstract base of capture session outputs, such as `AVCaptureVideoDataOutput`.
public class AVCaptureOutput: NSObject, @unchecked Sendable {
    /// The session and connections, as the session sets them.
    private struct Links {
        weak var session: AVCaptureSession?
        var connections: [AVCaptureConnection] = []
    }

    private let links = Locked(Links())

    override init() { super.init() }

    /// The connections that bring media to the output.
    public var connections: [AVCaptureConnection] { links.connections }

    /// The first connection with an input port of a media type.
    public func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { $0.mediaTypes.contains(mediaType) }
    }

    /// The session the output was added to.
    var session: AVCaptureSession? {
        get { links.session }
        set { links.session = newValue }
    }

    /// The size of the pictures the output delivers for a camera picture of `turned` size
    /// (turned as its connection says): that size, unless the output scales its pictures.
    func deliveredSize(turned: (width: Int, height: Int)) -> (width: Int, height: Int) { turned }

    /// Replaces the connections (by the session).
    func setConnections(_ connections: [AVCaptureConnection]) {
        links.connections = connections
    }

    /// Whether the output takes media of a type (each type through at most one connection).
    func accepts(_ mediaType: AVMediaType) -> Bool { false }

    /// A sample from a device, on the device's thread: enqueue and return quickly.
    func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {}

    /// Whether the output, as it is now, needs the pictures of a camera that sends compressed
    /// frames (H.264) through `connection`, so that the camera must decode them; outputs that
    /// take the compressed frames as they are, or take nothing now, do not. Asked when the
    /// session's routes change; an output whose answer changes calls `needsChanged()`.
    func needsDecodedVideo(from connection: AVCaptureConnection) -> Bool { true }

    /// Tells the session that `needsDecodedVideo(from:)` may answer differently now.
    func needsChanged() { session?.outputNeedsChanged() }

    /// The session is about to start delivering.
    func sessionWillStartRunning() {}

    /// The session is stopping because of a runtime error (an unplugged device); called before
    /// `sessionDidStopRunning()`.
    func sessionWillStop(with error: AVError) {}

    /// The session stopped: discard whatever is queued, deliver nothing more.
    func sessionDidStopRunning() {}

    /// Makes the output deliver to a synchronizer's receiver (on its queue) instead of its
    /// delegate; nil gives delivery back to the delegate. Data outputs override it.
    func synchronize(with receiver: SynchronizedOutputsReceiver?) {}
}
