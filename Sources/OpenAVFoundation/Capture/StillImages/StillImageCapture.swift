import Foundation
import CaptureDevices
import HostSystem
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The one still-image core behind `AVCapturePhotoOutput` and `AVCaptureStillImageOutput`: it
/// takes the next frame the camera takes after a request and turns it into a JPEG (the
/// engine's `ImageEncoder`) or an uncompressed buffer of its own pool (the shared
/// `PixelConverter`), at the size the request resolved.
///
/// Requests are served in order, one frame each, and only by frames the camera took (their
/// presentation time on the host clock) at or after the moment of the request: a photo is never
/// an older, cached frame, nor one already on its way when the request came. On the device's thread a frame
/// is only handed over; conversion, encoding and the owner's callbacks run on `queue`, a serial
/// queue. At most `maximumHeldFrames` camera buffers wait there at once, so that photos never
/// starve the camera's buffer pool (and the session's other outputs); later requests then take
/// later frames. When the session stops, waiting requests fail with `.sessionNotRunning`.
final class StillImageCapture: @unchecked Sendable {
    /// What a still is made into.
    enum Encoding: Equatable, Sendable {
        /// A JPEG file, at a quality from 0 to 1.
        case jpeg(quality: Double)
        /// An uncompressed pixel buffer of a pixel format.
        case pixels(OSType)
    }

    /// A finished still.
    enum Image: @unchecked Sendable {
        /// A JPEG file (JFIF, without metadata).
        case jpeg(Data)
        /// An uncompressed picture in a buffer of the core's own pool.
        case pixels(CVPixelBuffer)
    }

    /// A camera frame taken for a request.
    struct Frame: @unchecked Sendable {
        /// The camera's buffer: release it promptly.
        let pixelBuffer: CVPixelBuffer
        /// The frame's time on the host clock.
        let presentationTime: CMTime
        /// The frame's duration.
        let duration: CMTime
    }

    /// What a request is told: its frame, or why there is none.
    typealias Handler = @Sendable (Result<Frame, AVError>) -> Void

    /// The codecs stills can be compressed with.
    static let codecTypes: [AVVideoCodecType] = [.jpeg]
    /// The uncompressed pixel formats stills can be delivered in.
    static let pixelFormatTypes: [OSType] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_32BGRA,
    ]
    /// The JPEG quality when the settings give none (as `CGImageDestination`'s default).
    static let defaultJPEGQuality = 0.9
    /// How many camera buffers may be held at once, waiting or being processed; while that many
    /// are, a request waits for a later frame.
    static let maximumHeldFrames = 2

    /// The serial queue where frames are processed and the owner calls back.
    let queue: DispatchQueue
    private let lock = NSLock()
    private var running = false
    /// Waiting requests: the earliest frame time each accepts, and its handler.
    private var waiting: [(notBefore: CMTime, handler: Handler)] = []
    /// Frames handed to requests, waiting for processing on `queue` (one fewer than
    /// `maximumHeldFrames`: the drain holds one more while it processes it), and whether a
    /// drain there is processing them.
    private var held = BoundedQueue<(frame: Frame, handler: Handler)>(capacity: maximumHeldFrames - 1, policy: .dropNewest)
    private var draining = false
    /// Used only on `queue`.
    private let converter = CapturePixelConverter()

    /// A core whose queue has `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// The encoding a settings dictionary asks for: `AVVideoCodecKey` (with an optional
    /// `AVVideoQualityKey`, at the top or in `AVVideoCompressionPropertiesKey`) or
    /// `kCVPixelBufferPixelFormatTypeKey`; nil or neither key means JPEG. A codec or pixel format
    /// other than `codecTypes` and `pixelFormatTypes` offer is a programmer error; `owner` names
    /// the property in the message.
    static func encoding(from settings: [String: Any]?, owner: String) -> Encoding {
        let settings = settings ?? [:]
        if let pixelFormat = settings[kCVPixelBufferPixelFormatTypeKey] {
            guard let type = SettingsValue.integer(pixelFormat).flatMap({ OSType(exactly: $0) }),
                  pixelFormatTypes.contains(type) else {
                Misuse.fail(.stillImagePixelFormatNotAvailable(owner: owner))
            }
            return .pixels(type)
        }
        if let codec = settings[AVVideoCodecKey] {
            let name = (codec as? AVVideoCodecType)?.rawValue ?? codec as? String
            Misuse.check(codecTypes.contains { $0.rawValue == name }, .stillImageCodecNotAvailable(owner: owner))
        }
        let properties = settings[AVVideoCompressionPropertiesKey] as? [String: Any]
        let quality = SettingsValue.double(settings[AVVideoQualityKey] ?? properties?[AVVideoQualityKey])
        return .jpeg(quality: min(max(quality ?? defaultJPEGQuality, 0), 1))
    }

    // MARK: Requests

    /// Asks for the next frame taken from now on; `handler` gets it (or the failure) on `queue`.
    func takeNextFrame(_ handler: @escaping Handler) {
        let now = CMClockGetTime(CMClock.hostTimeClock)
        let accepted = lock.withLock { () -> Bool in
            guard running else { return false }
            waiting.append((now, handler))
            return true
        }
        if !accepted { queue.async { handler(.failure(Self.notRunning)) } }
    }

    /// A frame from the output's connection, on the device's thread: hands it to the oldest
    /// waiting request, if the frame is recent enough for it, and returns.
    func receive(_ sample: CaptureSample) {
        guard let pixelBuffer = sample.pixelBuffer else { return }
        let startsDrain = lock.withLock { () -> Bool in
            guard let oldest = waiting.first, sample.presentationTime >= oldest.notBefore, !held.isFull else { return false }
            let frame = Frame(pixelBuffer: pixelBuffer, presentationTime: sample.presentationTime, duration: sample.duration)
            _ = held.push((frame, waiting.removeFirst().handler))
            defer { draining = true }
            return !draining
        }
        if startsDrain { queue.async { self.drain() } }
    }

    /// Hands the held frames to their requests until none is left (on `queue`).
    private func drain() {
        while let (frame, handler) = lock.withLock({ () -> (frame: Frame, handler: Handler)? in
            guard let next = held.pop() else {
                draining = false
                return nil
            }
            return next
        }) {
            handler(.success(frame))
        }
    }

    /// The session starts delivering: requests are accepted.
    func sessionWillStartRunning() {
        lock.withLock { running = true }
    }

    /// The session stopped: waiting requests fail, new ones are refused.
    func sessionDidStopRunning() {
        let failed = lock.withLock { () -> [(notBefore: CMTime, handler: Handler)] in
            running = false
            defer { waiting.removeAll() }
            return waiting
        }
        for (_, handler) in failed { queue.async { handler(.failure(Self.notRunning)) } }
    }

    private static var notRunning: AVError {
        AVError(.sessionNotRunning, reason: "the capture session stopped before a frame could be taken")
    }

    // MARK: Rendering

    /// A frame made into a still of `encoding`, `width` x `height` (scaled if the frame's size
    /// differs, as after a format change). On `queue`.
    func render(_ frame: Frame, as encoding: Encoding, width: Int, height: Int) throws(AVError) -> Image {
        let source = frame.pixelBuffer
        let sameSize = CVPixelBufferGetWidth(source) == width && CVPixelBufferGetHeight(source) == height
        do {
            switch encoding {
            case .jpeg(let quality):
                let pixels = sameSize ? source : try converter.convert(
                    source, to: CVPixelBufferGetPixelFormatType(source), width: width, height: height)
                return .jpeg(try ImageEncoder.encode(pixels, as: .jpeg(quality: quality)))
            case .pixels(let pixelFormat):
                return .pixels(try converter.convert(source, to: pixelFormat, width: width, height: height))
            }
        } catch {
            throw AVError(.unknown, reason: "cannot make a still image of a captured frame: \(error)", underlying: error)
        }
    }
}
