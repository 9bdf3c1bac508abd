import Foundation
import CaptureDevices
import Logging
import OpenCoreMedia
import OpenCoreVideo

/// A capture output that delivers video frames as sample buffers to a delegate, on its queue.
///
/// Between the device's thread and the delegate's queue is a bounded queue: with
/// `alwaysDiscardsLateVideoFrames` (the default) it holds one frame while the delegate is busy,
/// a newer frame replacing it; otherwise up to `lateFrameQueueCapacity` frames, the newest
/// dropped when full. Every frame dropped, here or by the device, is reported once through
/// `captureOutput(_:didDrop:from:)` with the reason `kCMSampleBufferDroppedFrameReason_FrameWasLate`
/// (device-side drops too, for now). Buffers carry the device's host-clock timestamps unchanged.
/// Pixels are converted (by the shared `PixelConverter`) only when `videoSettings` asks for a
/// pixel format other than the device's; width and height keys are not honoured yet.
public final class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// How many frames wait for a busy delegate when `alwaysDiscardsLateVideoFrames` is false.
    ///
    /// Linux addition: Apple does not say how many.
    public static let lateFrameQueueCapacity = 4

    /// A frame waiting for the delegate.
    private struct Pending {
        let pixelBuffer: CVPixelBuffer
        let presentationTime: CMTime
        let duration: CMTime
        let connection: AVCaptureConnection
    }

    /// A dropped frame waiting to be reported.
    private struct Dropped {
        let presentationTime: CMTime
        let duration: CMTime
        let formatDescription: CMFormatDescription?
        let connection: AVCaptureConnection
    }

    private let lock = NSLock()
    private weak var delegateStorage: (any AVCaptureVideoDataOutputSampleBufferDelegate)?
    private var queueStorage: DispatchQueue?
    private var settingsStorage: [String: Any]?
    private var discardsLate = true
    private var pending: [Pending] = []
    private var dropped: [Dropped] = []
    private var draining = false
    /// Counts session stops, so a drain started before one delivers nothing after it.
    private var generation = 0

    // Used only on the delegate queue, by `drain`.
    private let converter = CapturePixelConverter()
    private var formatDescription: CMVideoFormatDescription?
    private let logger = Logger(label: "OpenAVFoundation.AVCaptureVideoDataOutput")

    /// An output with no delegate, delivering the device's pixel format.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    // MARK: Settings

    /// The pixel formats `videoSettings` may ask for: '420v', '420f' and '32BGRA'.
    public var availableVideoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
         kCVPixelFormatType_32BGRA]
    }

    /// The format of delivered frames: `kCVPixelBufferPixelFormatTypeKey` with one of
    /// `availableVideoPixelFormatTypes`; nil (or no key) means the device's own format, which the
    /// getter then reports. Asking for another pixel format is a programmer error.
    public var videoSettings: [String: Any]! {
        get {
            if let settings = lock.withLock({ settingsStorage }), settings[kCVPixelBufferPixelFormatTypeKey] != nil {
                return settings
            }
            return [kCVPixelBufferPixelFormatTypeKey: NSNumber(value: nativePixelFormat)]
        }
        set {
            if let format = newValue?[kCVPixelBufferPixelFormatTypeKey] {
                guard let type = Self.osType(format), availableVideoPixelFormatTypes.contains(type) else {
                    preconditionFailure("AVCaptureVideoDataOutput.videoSettings: kCVPixelBufferPixelFormatTypeKey must be one of availableVideoPixelFormatTypes")
                }
            }
            lock.withLock { settingsStorage = newValue }
        }
    }

    /// The pixel format of the connected camera's active format ('420v' when unconnected).
    private var nativePixelFormat: OSType {
        guard let input = connection(with: .video)?.inputPorts.first?.input as? AVCaptureDeviceInput,
              let video = input.device.activeFormat.video else {
            return kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        }
        return video.pixelFormat
    }

    /// The pixel format asked for, or nil for the device's own.
    private var requestedPixelFormat: OSType? {
        lock.withLock { settingsStorage?[kCVPixelBufferPixelFormatTypeKey] }.flatMap(Self.osType)
    }

    private static func osType(_ value: Any) -> OSType? {
        SettingsValue.integer(value).flatMap { OSType(exactly: $0) }
    }

    /// Whether frames arriving while the delegate is busy are dropped, keeping only the newest
    /// one waiting (true, the default), rather than queued (up to `lateFrameQueueCapacity`).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { lock.withLock { discardsLate } }
        set { lock.withLock { discardsLate = newValue } }
    }

    /// Video settings for an `AVAssetWriterInput` recording this output's frames to a file type:
    /// H.264 at the camera's active size and frame rate; nil for a file type without video or
    /// when the output has no camera connected.
    ///
    /// Differs from Apple: the settings come from `AVOutputSettingsAssistant` (its bit rates).
    public func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        guard [.mov, .mp4, .m4v].contains(outputFileType),
              let device = (connection(with: .video)?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device,
              let video = device.activeFormat.video else { return nil }
        let presets: [(AVOutputSettingsPreset, Int, Int)] = [
            (.preset640x480, 640, 480), (.preset960x540, 960, 540), (.preset1280x720, 1280, 720),
            (.preset1920x1080, 1920, 1080),
        ]
        let preset = presets.first { video.width <= $0.1 && video.height <= $0.2 }?.0 ?? .preset3840x2160
        guard let assistant = AVOutputSettingsAssistant(preset: preset) else { return nil }
        assistant.sourceVideoFormat = device.activeFormat.formatDescription
        assistant.sourceVideoAverageFrameDuration = device.activeVideoMinFrameDuration
        assistant.sourceVideoMinFrameDuration = device.activeVideoMinFrameDuration
        return assistant.videoSettings
    }

    // MARK: Delegate

    /// The delegate (held weakly), or nil.
    public var sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)? {
        lock.withLock { delegateStorage }
    }

    /// The queue the delegate is called on, or nil.
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { queueStorage } }

    /// Sets the delegate and the serial queue it is called on; a delegate without a queue is a
    /// programmer error. A nil delegate stops delivery.
    public func setSampleBufferDelegate(_ sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?,
                                        queue sampleBufferCallbackQueue: DispatchQueue?) {
        precondition(sampleBufferDelegate == nil || sampleBufferCallbackQueue != nil,
                     "AVCaptureVideoDataOutput.setSampleBufferDelegate(_:queue:) needs a queue with a delegate")
        lock.withLock {
            delegateStorage = sampleBufferDelegate
            queueStorage = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
            if sampleBufferDelegate == nil {
                pending.removeAll()
                dropped.removeAll()
            }
        }
    }

    // MARK: Delivery

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard let pixelBuffer = sample.pixelBuffer else { return }
        let start = lock.withLock { () -> (DispatchQueue, Int)? in
            guard let queue = queueStorage, delegateStorage != nil else { return nil }
            if sample.droppedBefore > 0 {
                var description: CMVideoFormatDescription?
                CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixelBuffer,
                                                             formatDescriptionOut: &description)
                for k in stride(from: sample.droppedBefore, through: 1, by: -1) {
                    let time = CMTimeSubtract(sample.presentationTime, CMTimeMultiply(sample.duration, multiplier: Int32(k)))
                    dropped.append(Dropped(presentationTime: time, duration: sample.duration,
                                           formatDescription: description, connection: connection))
                }
            }
            let frame = Pending(pixelBuffer: pixelBuffer, presentationTime: sample.presentationTime,
                                duration: sample.duration, connection: connection)
            let capacity = discardsLate ? 1 : Self.lateFrameQueueCapacity
            if draining && pending.count >= capacity {
                if discardsLate {
                    dropLocked(pending.removeFirst())
                    pending.append(frame)
                } else {
                    dropLocked(frame)
                }
            } else {
                pending.append(frame)
            }
            guard !draining else { return nil }
            draining = true
            return (queue, generation)
        }
        if let (queue, generation) = start { queue.async { self.drain(generation: generation) } }
    }

    private func dropLocked(_ frame: Pending) {
        var description: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: frame.pixelBuffer,
                                                     formatDescriptionOut: &description)
        dropped.append(Dropped(presentationTime: frame.presentationTime, duration: frame.duration,
                               formatDescription: description, connection: frame.connection))
    }

    /// Delivers drop reports and waiting frames, on the delegate queue, until none is left.
    private func drain(generation: Int) {
        while true {
            let work = lock.withLock { () -> ([Dropped], Pending?, (any AVCaptureVideoDataOutputSampleBufferDelegate)?)? in
                guard self.generation == generation, let delegate = delegateStorage,
                      !dropped.isEmpty || !pending.isEmpty else {
                    draining = false
                    return nil
                }
                let drops = dropped
                dropped.removeAll()
                let frame = pending.isEmpty ? nil : pending.removeFirst()
                return (drops, frame, delegate)
            }
            guard let (drops, frame, delegate) = work, let delegate else { return }
            for drop in drops {
                delegate.captureOutput(self, didDrop: Self.droppedBuffer(drop), from: drop.connection)
            }
            if let frame, let buffer = sampleBuffer(for: frame) {
                delegate.captureOutput(self, didOutput: buffer, from: frame.connection)
            }
        }
    }

    /// A buffer describing a dropped frame: timing and format, no pixels, the reason attached.
    private static func droppedBuffer(_ drop: Dropped) -> CMSampleBuffer {
        var timing = CMSampleTimingInfo(duration: drop.duration, presentationTimeStamp: drop.presentationTime,
                                        decodeTimeStamp: .invalid)
        var buffer: CMSampleBuffer?
        CMSampleBufferCreate(allocator: nil, dataBuffer: nil, dataReady: false, makeDataReadyCallback: nil,
                             refcon: nil, formatDescription: drop.formatDescription, sampleCount: 1,
                             sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 0,
                             sampleSizeArray: nil, sampleBufferOut: &buffer)
        guard let buffer else { preconditionFailure("cannot describe a dropped frame") }
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason,
                        value: kCMSampleBufferDroppedFrameReason_FrameWasLate,
                        attachmentMode: kCMAttachmentMode_ShouldPropagate)
        return buffer
    }

    /// The delivered buffer of a frame, converted to the requested pixel format if it differs.
    private func sampleBuffer(for frame: Pending) -> CMSampleBuffer? {
        var pixels = frame.pixelBuffer
        if let wanted = requestedPixelFormat, wanted != CVPixelBufferGetPixelFormatType(pixels) {
            guard let converted = convert(pixels, to: wanted) else { return nil }
            pixels = converted
        }
        if formatDescription.map({ !CMVideoFormatDescriptionMatchesImageBuffer($0, imageBuffer: pixels) }) ?? true {
            formatDescription = nil
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels,
                                                         formatDescriptionOut: &formatDescription)
        }
        guard let formatDescription else { return nil }
        var timing = CMSampleTimingInfo(duration: frame.duration, presentationTimeStamp: frame.presentationTime,
                                        decodeTimeStamp: .invalid)
        var buffer: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: pixels,
                                                 formatDescription: formatDescription, sampleTiming: &timing,
                                                 sampleBufferOut: &buffer)
        return buffer
    }

    private func convert(_ source: CVPixelBuffer, to pixelFormat: OSType) -> CVPixelBuffer? {
        do {
            return try converter.convert(source, to: pixelFormat, width: CVPixelBufferGetWidth(source),
                                         height: CVPixelBufferGetHeight(source))
        } catch {
            logger.error("cannot convert a captured frame to '\(pixelFormat.fourCharacterString)': \(error)")
            return nil
        }
    }

    override func sessionWillStartRunning() {}

    override func sessionDidStopRunning() {
        lock.withLock {
            generation += 1
            pending.removeAll()
            dropped.removeAll()
        }
    }
}
