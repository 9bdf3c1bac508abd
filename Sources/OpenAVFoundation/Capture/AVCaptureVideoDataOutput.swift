import Foundation
import CaptureDevices
import HostSystem
import Logging
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// A capture output that delivers video frames as sample buffers to a delegate, on its queue.
///
/// Between the device's thread and the delegate's queue is a bounded queue: with
/// `alwaysDiscardsLateVideoFrames` (the default) it holds one frame while the delegate is busy,
/// a newer frame replacing it; otherwise up to `lateFrameQueueCapacity` frames, the newest
/// dropped when full. Every frame dropped, here or by the device, is reported once through
/// `captureOutput(_:didDrop:from:)` with its `kCMSampleBufferAttachmentKey_DroppedFrameReason`:
/// `…_FrameWasLate` for frames dropped here or by a device that fell behind, `…_OutOfBuffers`
/// when the device had no free buffer (the client held them all), `…_Discontinuity` once when
/// the device restarted while running (a format change, another camera), an unknown number of
/// frames lost. Buffers carry the device's host-clock timestamps unchanged.
/// The device's buffers are delivered as they are unless `videoSettings` asks for another pixel
/// format or size or the connection turns or mirrors the picture; then the shared
/// `PixelConverter` makes each delivered buffer, on the delegate queue, into pooled buffers.
///
/// A camera that sends H.264 (an active format whose media subtype is `'avc1'`) delivers, with
/// `videoSettings` set to an empty dictionary (Apple's "device-native format"), its compressed
/// frames as they come: `'avc1'` sample buffers (length-prefixed NAL units, the parameter sets
/// in the format description's `avcC` atom, `kCMSampleAttachmentKey_NotSync` on frames that are
/// not key frames), which the camera then need not decode. With any other settings its frames
/// are decoded into pictures; a frame that cannot be decoded (before the first key frame, or
/// right after decoding starts again) is reported dropped with
/// `kCMSampleBufferDroppedFrameReason_Discontinuity`. Connection turns and mirroring do not
/// apply to compressed frames, and late frames are discarded as pictures are: a client that
/// decodes or stores the frames wants `alwaysDiscardsLateVideoFrames` false, since a frame
/// needs the ones before it up to a key frame.
public final class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// How many frames wait for a busy delegate when `alwaysDiscardsLateVideoFrames` is false.
    ///
    /// Linux addition: Apple does not say how many.
    public static let lateFrameQueueCapacity = 4

    /// What a frame delivers: a picture, or a camera's compressed frame as it is.
    private enum Frame {
        case picture(CVPixelBuffer)
        case compressed(CMSampleBuffer)
    }

    /// A frame waiting for the delegate.
    private struct Pending {
        let frame: Frame
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
        /// A `kCMSampleBufferDroppedFrameReason_…` value.
        let reason: CFString
    }

    /// What the client, the device's thread and the delegate queue share, behind one lock.
    private struct State {
        weak var delegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
        /// A synchronizer's receiver, called instead of the delegate while it is set.
        var synchronizer: SynchronizedOutputsReceiver?
        /// The settings as given, and what they ask for.
        var settings: (dictionary: [String: Any], request: VideoOutputSettings)?
        var discardsLate = true
        /// Frames waiting for the delegate: the newest one (`alwaysDiscardsLateVideoFrames`) or
        /// up to `lateFrameQueueCapacity`, the newest dropped.
        var pending = BoundedQueue<Pending>(capacity: 1, policy: .dropOldest)
        var dropped: [Dropped] = []
        var draining = false
        /// The sequence number of the device's last sample this run, to notice a restart.
        var lastSequenceNumber: UInt64?
        /// `minFrameDuration`, and the time of the last frame it let through.
        var minimumInterval = CMTime.invalid
        var lastAcceptedTime = CMTime.invalid
        /// Counts session stops, so a drain started before one delivers nothing after it.
        var generation = 0
        /// The format of the last frame reported dropped, reused while frames keep it (making
        /// one costs far more than checking one, and drops happen when the device thread is
        /// behind).
        var droppedFormat: CMVideoFormatDescription?

        /// Who frames go to, and on which queue: the synchronizer's receiver, else the delegate.
        var listener: (delegate: any AVCaptureVideoDataOutputSampleBufferDelegate, queue: DispatchQueue)? {
            if let synchronizer { return (synchronizer, synchronizer.queue) }
            guard let delegate, let queue else { return nil }
            return (delegate, queue)
        }

        /// Whether the settings ask for the device's native format: a camera's compressed frames.
        var deliversCompressedFrames: Bool { settings?.dictionary.isEmpty == true }

        /// Reports a frame dropped for being late.
        mutating func drop(_ frame: Pending) {
            dropped.append(Dropped(presentationTime: frame.presentationTime, duration: frame.duration,
                                   formatDescription: formatDescription(of: frame.frame), connection: frame.connection,
                                   reason: kCMSampleBufferDroppedFrameReason_FrameWasLate))
        }

        /// The format description of a dropped frame: a compressed frame's own; for a picture
        /// `droppedFormat` while it matches; for a frame without a picture the last one.
        mutating func formatDescription(of frame: Frame?) -> CMVideoFormatDescription? {
            let pixelBuffer: CVPixelBuffer
            switch frame {
            case .compressed(let sample)?: return sample.formatDescription
            case nil: return droppedFormat
            case .picture(let picture)?: pixelBuffer = picture
            }
            if let droppedFormat, CMVideoFormatDescriptionMatchesImageBuffer(droppedFormat, imageBuffer: pixelBuffer) {
                return droppedFormat
            }
            droppedFormat = nil
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixelBuffer, formatDescriptionOut: &droppedFormat)
            return droppedFormat
        }
    }

    private let state = Locked(State())

    // Used only on the delegate queue, by `drain`.
    private let converter = CapturePixelConverter()
    /// The iterations of `sampleBuffers`.
    private var streams: SampleBufferStreams!
    private var formatDescription: CMVideoFormatDescription?
    private let logger = Logger(label: "OpenAVFoundation.AVCaptureVideoDataOutput")

    /// An output with no delegate, delivering the device's pixel format.
    public override init() {
        super.init()
        streams = SampleBufferStreams(of: self)
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    // MARK: Settings

    /// The pixel formats `videoSettings` may ask for: '420v', '420f' and '32BGRA'.
    public var availableVideoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
         kCVPixelFormatType_32BGRA]
    }

    /// The codecs `videoSettings` may ask for with `AVVideoCodecKey`: none, the output delivers
    /// pictures (or a camera's own compressed frames, with empty settings); compress them with
    /// `AVAssetWriterInput`.
    public var availableVideoCodecTypes: [AVVideoCodecType] { [] }

    /// The format of delivered frames: `kCVPixelBufferPixelFormatTypeKey` with one of
    /// `availableVideoPixelFormatTypes` (nil, or no key: the device's own format, which the
    /// getter then reports), and `kCVPixelBufferWidthKey`/`kCVPixelBufferHeightKey`, the size of
    /// the delivered buffers (each missing one: the camera's, turned as the connection turns
    /// the picture). An empty dictionary delivers the device's native format: a camera's
    /// compressed frames as they are, when it sends H.264 (the getter then reports
    /// `AVVideoCodecKey`). Settings the output cannot honour are a programmer error.
    ///
    /// Differs from Apple: iOS honours only the pixel format; here, as on macOS, width and
    /// height scale the picture (through the same conversion as the pixel format and the turn).
    public var videoSettings: [String: Any]! {
        get {
            var settings = state.settings?.dictionary ?? [:]
            if deliversCompressedFrames, let codec = connection(with: .video)?.activeVideoFormat?.codecType {
                return [AVVideoCodecKey: AVVideoCodecType(rawValue: codec.fourCharacterString)]
            }
            if settings[kCVPixelBufferPixelFormatTypeKey] == nil {
                settings[kCVPixelBufferPixelFormatTypeKey] = NSNumber(value: nativePixelFormat)
            }
            return settings
        }
        set {
            var parsed: (dictionary: [String: Any], request: VideoOutputSettings)?
            if let newValue {
                do {
                    parsed = (newValue, try VideoOutputSettings(newValue))
                } catch {
                    Misuse.fail(.videoSettingsNotHonoured(error))
                }
                if let format = parsed?.request.pixelFormatType {
                    Misuse.check(availableVideoPixelFormatTypes.contains(format), .videoSettingsPixelFormatNotAvailable)
                }
            }
            state.settings = parsed
            needsChanged()
        }
    }

    /// The pixel format of the connected camera's active format ('420v' when unconnected).
    private var nativePixelFormat: OSType {
        connection(with: .video)?.activeVideoFormat?.pixelFormat ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
    }

    /// What the settings ask of delivered buffers (nothing, when nil or empty).
    private var request: VideoOutputSettings? { state.settings?.request }

    /// The size `videoSettings` asks for (`kCVPixelBufferWidthKey`, `…HeightKey`), else the
    /// camera's picture turned.
    override func deliveredSize(turned: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let request = self.request
        return (request?.width ?? turned.width, request?.height ?? turned.height)
    }

    /// Whether the settings ask for the device's native format: a camera's compressed frames.
    private var deliversCompressedFrames: Bool { state.withLock { $0.deliversCompressedFrames } }

    override func needsDecodedVideo(from connection: AVCaptureConnection) -> Bool {
        state.withLock { s in (s.listener != nil || !streams.isEmpty) && !s.deliversCompressedFrames }
    }

    /// The shortest time between delivered frames (`.invalid`, the default: every frame): the
    /// programming guide's way to cap the frame rate. Frames coming sooner are skipped, not
    /// reported as dropped (a camera's compressed frames too, which leaves later ones
    /// undecodable up to a key frame).
    @available(*, deprecated, message: "Use AVCaptureDevice.activeVideoMinFrameDuration instead.")
    public var minFrameDuration: CMTime {
        get { state.minimumInterval }
        set { state.minimumInterval = newValue }
    }

    /// Whether frames arriving while the delegate is busy are dropped, keeping only the newest
    /// one waiting (true, the default), rather than queued (up to `lateFrameQueueCapacity`).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.discardsLate }
        set {
            state.withLock { s in
                s.discardsLate = newValue
                let (capacity, policy) = newValue ? (1, BoundedQueue<Pending>.Policy.dropOldest) : (Self.lateFrameQueueCapacity, .dropNewest)
                for frame in s.pending.reconfigure(capacity: capacity, policy: policy) { s.drop(frame) }
            }
        }
    }

    /// Video settings for an `AVAssetWriterInput` recording this output's frames to a file type:
    /// H.264 at the camera's active size and frame rate (a screen's delivered size and
    /// `minFrameDuration`), a key frame every second (what `AVCaptureMovieFileOutput` records);
    /// nil for a file type without video or when the output has no camera or screen connected.
    ///
    /// Differs from Apple: the bit rate comes from `AVOutputSettingsAssistant`'s table.
    public func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: outputFileType)
    }

    /// The codecs `recommendedVideoSettings(forVideoCodecType:assetWriterOutputFileType:)`
    /// gives settings for when writing `outputFileType`: H.264 and HEVC (what the writer encodes
    /// into a movie), none for a file type without video.
    public func availableVideoCodecTypesForAssetWriter(writingTo outputFileType: AVFileType) -> [AVVideoCodecType] {
        [.mov, .mp4, .m4v].contains(outputFileType) ? [.h264, .hevc] : []
    }

    /// Video settings for an `AVAssetWriterInput` recording this output's frames with
    /// `videoCodecType` to `outputFileType`, as `recommendedVideoSettingsForAssetWriter(writingTo:)`
    /// gives for H.264; nil for a codec `availableVideoCodecTypesForAssetWriter(writingTo:)`
    /// does not list, or when the output has no camera or screen connected.
    public func recommendedVideoSettings(forVideoCodecType videoCodecType: AVVideoCodecType,
                                         assetWriterOutputFileType outputFileType: AVFileType) -> [String: Any]? {
        guard availableVideoCodecTypesForAssetWriter(writingTo: outputFileType).contains(videoCodecType) else { return nil }
        let settings = CaptureEncodingSettings.video(for: connection(with: .video)?.inputPorts.first?.input, codec: videoCodecType)
        return settings.isEmpty ? nil : settings
    }

    /// Video settings for an `AVAssetWriterInput` recording this output's frames with
    /// `videoCodecType` to `outputFileType`, as
    /// `recommendedVideoSettings(forVideoCodecType:assetWriterOutputFileType:)` gives. Apple uses
    /// the file's URL to pick settings for its storage (an external drive); here the URL does not
    /// change them.
    public func recommendedVideoSettings(forVideoCodecType videoCodecType: AVVideoCodecType,
                                         assetWriterOutputFileType outputFileType: AVFileType,
                                         outputFileURL: URL?) -> [String: Any]? {
        recommendedVideoSettings(forVideoCodecType: videoCodecType, assetWriterOutputFileType: outputFileType)
    }

    // MARK: Delegate

    /// The delegate (held weakly), or nil.
    public var sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)? {
        state.delegate
    }

    /// The queue the delegate is called on, or nil.
    public var sampleBufferCallbackQueue: DispatchQueue? { state.queue }

    /// Sets the delegate and the serial queue it is called on; a delegate without a queue is a
    /// programmer error. A nil delegate stops delivery.
    public func setSampleBufferDelegate(_ sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?,
                                        queue sampleBufferCallbackQueue: DispatchQueue?) {
        Misuse.check(sampleBufferDelegate == nil || sampleBufferCallbackQueue != nil, .videoDataDelegateWithoutQueue)
        state.withLock { s in
            s.delegate = sampleBufferDelegate
            s.queue = sampleBufferDelegate == nil ? nil : sampleBufferCallbackQueue
            if sampleBufferDelegate == nil {
                s.pending.removeAll()
                s.dropped.removeAll()
            }
        }
        needsChanged()
    }

    override func synchronize(with receiver: SynchronizedOutputsReceiver?) {
        // As a new delegate is taken: a drain under way finishes on its queue, delivering to
        // nobody, and the next one starts on the receiver's (one drain at a time: the converter
        // and pools are the drain's alone).
        state.withLock { $0.synchronizer = receiver }
        needsChanged()
    }

    // MARK: Delivery

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard sample.isVideo else { return }
        let start = state.withLock { s -> (DispatchQueue, Int)? in
            guard let queue = s.listener?.queue ?? (streams.isEmpty ? nil : streams.queue) else { return nil }
            // A device that starts counting again was restarted (new format, another camera):
            // an unknown number of frames fell in between.
            let restarted = s.lastSequenceNumber.map { sample.sequenceNumber <= $0 } ?? false
            s.lastSequenceNumber = sample.sequenceNumber
            let frame = s.deliversCompressedFrames
                ? sample.compressedVideo.map(Frame.compressed) ?? sample.pixelBuffer.map(Frame.picture)
                               : sample.pixelBuffer.map(Frame.picture)
            if restarted || !sample.drops.isEmpty || frame == nil {
                let description = s.formatDescription(of: frame)
                if restarted {
                    s.dropped.append(Dropped(presentationTime: sample.presentationTime, duration: sample.duration,
                                             formatDescription: description, connection: connection,
                                             reason: kCMSampleBufferDroppedFrameReason_Discontinuity))
                }
                var before = sample.droppedBefore
                for run in sample.drops {
                    let reason = run.reason == .late ? kCMSampleBufferDroppedFrameReason_FrameWasLate
                                                     : kCMSampleBufferDroppedFrameReason_OutOfBuffers
                    for k in stride(from: before, to: before - run.count, by: -1) {
                        let time = CMTimeSubtract(sample.presentationTime, CMTimeMultiply(sample.duration, multiplier: Int32(k)))
                        s.dropped.append(Dropped(presentationTime: time, duration: sample.duration,
                                                 formatDescription: description, connection: connection, reason: reason))
                    }
                    before -= run.count
                }
                if frame == nil {
                    // A compressed frame the camera could not decode: no picture to deliver.
                    s.dropped.append(Dropped(presentationTime: sample.presentationTime, duration: sample.duration,
                                             formatDescription: description, connection: connection,
                                             reason: kCMSampleBufferDroppedFrameReason_Discontinuity))
                }
            }
            guard let frame else {
                guard !s.draining else { return nil }
                s.draining = true
                return (queue, s.generation)
            }
            if s.minimumInterval.isNumeric, s.lastAcceptedTime.isNumeric,
               sample.presentationTime - s.lastAcceptedTime < s.minimumInterval - CMTimeMultiplyByRatio(sample.duration, multiplier: 1, divisor: 2) {
                return nil
            }
            s.lastAcceptedTime = sample.presentationTime
            let waiting = Pending(frame: frame, presentationTime: sample.presentationTime,
                                  duration: sample.duration, connection: connection)
            if case .dropped(let late) = s.pending.push(waiting) { s.drop(late) }
            guard !s.draining else { return nil }
            s.draining = true
            return (queue, s.generation)
        }
        if let (queue, generation) = start { queue.async { self.drain(on: queue, generation: generation) } }
    }

    /// Delivers drop reports and waiting frames until none is left, on `queue`: the delegate's
    /// (which also feeds the `sampleBuffers` iterations), or the iterations' own when there is
    /// no delegate. The delegate is called only on its queue.
    private func drain(on queue: DispatchQueue, generation: Int) {
        while true {
            let work = state.withLock { s -> ([Dropped], Pending?, (any AVCaptureVideoDataOutputSampleBufferDelegate)?)? in
                guard s.generation == generation, s.listener != nil || !streams.isEmpty,
                      !s.dropped.isEmpty || !s.pending.isEmpty else {
                    s.draining = false
                    return nil
                }
                let drops = s.dropped
                s.dropped.removeAll()
                let frame = s.pending.pop()
                return (drops, frame, s.listener.flatMap { $0.queue === queue ? $0.delegate : nil })
            }
            guard let (drops, frame, delegate) = work else { return }
            for drop in drops {
                delegate?.captureOutput(self, didDrop: Self.droppedBuffer(drop), from: drop.connection)
            }
            if let frame, let buffer = sampleBuffer(for: frame) {
                delegate?.captureOutput(self, didOutput: buffer, from: frame.connection)
                streams.yield(buffer)
            }
        }
    }

    /// The frames this output delivers, as an asynchronous sequence, with or without a
    /// delegate; see `AVCaptureOutput.SampleBuffers`.
    ///
    /// Linux addition.
    public var sampleBuffers: SampleBuffers {
        SampleBuffers { [self] in
            alwaysDiscardsLateVideoFrames ? streams.makeIterator(capacity: 1, policy: .dropOldest)
                                          : streams.makeIterator(capacity: Self.lateFrameQueueCapacity, policy: .dropNewest)
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
        CMSetAttachment(buffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, value: drop.reason,
                        attachmentMode: kCMAttachmentMode_ShouldPropagate)
        return buffer
    }

    /// The delivered buffer of a frame: a compressed frame as it is; for a picture the device's
    /// buffer itself when nothing changes, else a pooled buffer the converter makes.
    private func sampleBuffer(for frame: Pending) -> CMSampleBuffer? {
        var pixels: CVPixelBuffer
        switch frame.frame {
        case .compressed(let sample): return sample
        case .picture(let picture): pixels = picture
        }
        let turn = frame.connection.videoTurn
        let request = self.request
        let pixelFormat = request?.pixelFormatType ?? CVPixelBufferGetPixelFormatType(pixels)
        let turned = turn.size(width: CVPixelBufferGetWidth(pixels), height: CVPixelBufferGetHeight(pixels))
        let (width, height) = deliveredSize(turned: turned)
        if !turn.isIdentity || pixelFormat != CVPixelBufferGetPixelFormatType(pixels) || (width, height) != turned {
            do {
                pixels = try converter.convert(pixels, to: pixelFormat, width: width, height: height, turning: turn)
            } catch {
                logger.error("cannot deliver a captured frame as '\(pixelFormat.fourCharacterString)' \(width)x\(height): \(error)")
                return nil
            }
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

    override func sessionWillStartRunning() {}

    override func sessionDidStopRunning() {
        state.withLock { s in
            s.generation += 1
            s.pending.removeAll()
            s.dropped.removeAll()
            s.lastSequenceNumber = nil
            s.lastAcceptedTime = .invalid
        }
        streams.finishAll()
    }
}
