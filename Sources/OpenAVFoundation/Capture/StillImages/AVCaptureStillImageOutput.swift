import Foundation
import CaptureDevices
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A capture output that takes still images on request, as the guide's "Capturing Still Images"
/// uses it: JPEG (the default) or uncompressed, with EXIF metadata attached to the sample buffer.
///
/// It shares `AVCapturePhotoOutput`'s still core: each request takes the next frame the camera
/// takes after the call, and the completion handler runs on the output's private serial queue.
/// Deprecated by Apple in favour of `AVCapturePhotoOutput`, kept because the guide uses it.
/// Misuse Apple answers with an exception (an unsupported codec or pixel format, an inactive
/// connection, a buffer that is not JPEG) is a `preconditionFailure` naming the rule.
@available(*, deprecated, message: "Use AVCapturePhotoOutput instead.")
public final class AVCaptureStillImageOutput: AVCaptureOutput, @unchecked Sendable {
    private let core = StillImageCapture(label: "OpenAVFoundation.AVCaptureStillImageOutput")
    @Locked private var settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecJPEG]
    /// How many captures wait for their handler.
    @Locked private var capturing = 0

    /// A still image output delivering JPEG.
    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) { core.receive(sample) }

    override func sessionWillStartRunning() { core.sessionWillStartRunning() }

    override func sessionDidStopRunning() { core.sessionDidStopRunning() }

    /// The format of the images: `AVVideoCodecKey` with `AVVideoCodecJPEG` (the default,
    /// optionally with `AVVideoQualityKey` in `AVVideoCompressionPropertiesKey`), or
    /// `kCVPixelBufferPixelFormatTypeKey` with one of `availableImageDataCVPixelFormatTypes`.
    /// Asking for anything else is a programmer error.
    public var outputSettings: [String: Any] {
        get { settings }
        set {
            _ = StillImageCapture.encoding(from: newValue, owner: "AVCaptureStillImageOutput.outputSettings")
            settings = newValue
        }
    }

    /// The uncompressed pixel formats `outputSettings` may ask for, as numbers: '420v', '420f'
    /// and 'BGRA'.
    public var availableImageDataCVPixelFormatTypes: [NSNumber] {
        StillImageCapture.pixelFormatTypes.map { NSNumber(value: $0) }
    }

    /// The codecs `outputSettings` may ask for: JPEG.
    public var availableImageDataCodecTypes: [AVVideoCodecType] { StillImageCapture.codecTypes }

    /// Whether a still image is being taken: from a capture call until its handler is called.
    public var isCapturingStillImage: Bool { capturing > 0 }

    /// Takes a still image from `connection` (one of this output's, active, with video) and
    /// returns at once; `handler` gets a sample buffer, or the error (`AVError.sessionNotRunning`
    /// when the session is not running), on the output's queue.
    ///
    /// A JPEG buffer holds the encoded image (format `'jpeg'`, the photo's dimensions), an
    /// uncompressed one a pixel buffer; both carry the frame's timing and the metadata
    /// (`kCGImagePropertyExifDictionary`, `kCGImagePropertyTIFFDictionary`,
    /// `kCGImagePropertyOrientation`) as attachments.
    public func captureStillImageAsynchronously(from connection: AVCaptureConnection,
                                                completionHandler handler: @escaping (CMSampleBuffer?, (any Error)?) -> Void) {
        Misuse.check(connections.contains { $0 === connection } && connection.isActive
                        && connection.mediaTypes.contains(.video),
                     .stillImageCaptureWithoutActiveConnection)
        let encoding = StillImageCapture.encoding(from: outputSettings, owner: "AVCaptureStillImageOutput.outputSettings")
        let device = (connection.inputPorts.first?.input as? AVCaptureDeviceInput)?.device
        let orientation = connection.videoOrientation
        $capturing.withLock { $0 += 1 }
        // Called once, on the output's queue, as Apple calls it; the handler is the client's to make safe.
        nonisolated(unsafe) let handler = handler
        core.takeNextFrame { [self] result in
            let outcome = Result { () throws(AVError) -> CMSampleBuffer in
                let frame = try result.get()
                let width = CVPixelBufferGetWidth(frame.pixelBuffer), height = CVPixelBufferGetHeight(frame.pixelBuffer)
                let image = try core.render(frame, as: encoding, width: width, height: height)
                let metadata = PhotoMetadata.make(width: width, height: height, orientation: orientation, device: device)
                return try Self.sampleBuffer(image, width: width, height: height, frame: frame, metadata: metadata)
            }
            $capturing.withLock { $0 -= 1 }
            switch outcome {
            case .success(let buffer): handler(buffer, nil)
            case .failure(let error): handler(nil, error)
            }
        }
    }

    /// A still as a sample buffer with the frame's timing and the metadata attached.
    private static func sampleBuffer(_ image: StillImageCapture.Image, width: Int, height: Int,
                                     frame: StillImageCapture.Frame, metadata: [String: Any]) throws(AVError) -> CMSampleBuffer {
        var timing = CMSampleTimingInfo(duration: frame.duration, presentationTimeStamp: frame.presentationTime,
                                        decodeTimeStamp: .invalid)
        var buffer: CMSampleBuffer?
        switch image {
        case .jpeg(let data):
            var description: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreate(allocator: nil, codecType: kCMVideoCodecType_JPEG, width: Int32(width),
                                           height: Int32(height), extensions: nil, formatDescriptionOut: &description)
            var size = data.count
            CMSampleBufferCreateReady(allocator: nil, dataBuffer: CMBlockBuffer(copying: data),
                                      formatDescription: description, sampleCount: 1, sampleTimingEntryCount: 1,
                                      sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
                                      sampleBufferOut: &buffer)
        case .pixels(let pixels):
            var description: CMVideoFormatDescription?
            CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: pixels,
                                                         formatDescriptionOut: &description)
            if let description {
                CMSampleBufferCreateReadyWithImageBuffer(allocator: nil, imageBuffer: pixels,
                                                         formatDescription: description, sampleTiming: &timing,
                                                         sampleBufferOut: &buffer)
            }
        }
        guard let buffer else { throw AVError(.unknown, reason: "cannot make a sample buffer of a still image") }
        for (key, value) in metadata {
            CMSetAttachment(buffer, key: key, value: value as AnyObject, attachmentMode: kCMAttachmentMode_ShouldPropagate)
        }
        return buffer
    }

    /// The JPEG file of a JPEG sample buffer from this output, with its metadata attachments
    /// written into it as EXIF, without recompressing. A buffer that is not JPEG is a programmer
    /// error.
    public class func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data? {
        guard let description = CMSampleBufferGetFormatDescription(jpegSampleBuffer),
              CMFormatDescriptionGetMediaSubType(description) == kCMVideoCodecType_JPEG,
              let block = CMSampleBufferGetDataBuffer(jpegSampleBuffer) else {
            Misuse.fail(.jpegRepresentationOfAnotherFormat)
        }
        var bytes = Data(count: CMBlockBufferGetDataLength(block))
        let status = bytes.withUnsafeMutableBytes { raw in
            CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: raw.count, destination: raw.baseAddress!)
        }
        guard status == kCMBlockBufferNoErr else { return nil }
        let attachments = CMCopyDictionaryOfAttachments(allocator: nil, target: jpegSampleBuffer,
                                                        attachmentMode: kCMAttachmentMode_ShouldPropagate)
        return PhotoMetadata.insert(attachments as? [String: Any] ?? [:], into: bytes)
    }
}
