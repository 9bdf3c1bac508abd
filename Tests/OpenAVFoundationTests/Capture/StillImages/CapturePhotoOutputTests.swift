import Foundation
import Testing
@testable import OpenAVFoundation
import CaptureDevices
import TestSupport

/// Records one photo capture's delegate calls, in order, as Apple code implements the delegate.
final class PhotoCaptureRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var storedEvents: [String] = []
    private var storedIDs: [Int64] = []
    private var storedPhoto: AVCapturePhoto?
    private var storedErrors: [AVError?] = []

    var events: [String] { condition.withLock { storedEvents } }
    var resolvedIDs: [Int64] { condition.withLock { storedIDs } }
    var photo: AVCapturePhoto? { condition.withLock { storedPhoto } }
    /// The errors of `didFinishProcessingPhoto` and `didFinishCaptureFor`, in that order.
    var errors: [AVError?] { condition.withLock { storedErrors } }

    private func record(_ event: String, _ settings: AVCaptureResolvedPhotoSettings, error: (any Error)? = nil,
                        photo: AVCapturePhoto? = nil) {
        condition.withLock {
            storedEvents.append(event)
            storedIDs.append(settings.uniqueID)
            if let photo { storedPhoto = photo }
            if event.hasPrefix("didFinish") { storedErrors.append(error as? AVError) }
            condition.broadcast()
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record("willBeginCapture", resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record("willCapturePhoto", resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record("didCapturePhoto", resolvedSettings)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        record("didFinishProcessingPhoto", photo.resolvedSettings, error: error, photo: photo)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: (any Error)?) {
        record("didFinishCapture", resolvedSettings, error: error)
    }

    /// Waits until the capture is complete (or `timeout` passes); whether it completed.
    func waitUntilFinished(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !storedEvents.contains("didFinishCapture") {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}

extension DecodedImage {
    /// The frame index barcode in the decoded picture, if readable.
    var index: Int? {
        luma.withUnsafeBytes { FrameIndexBarcode.read(luma: $0, width: width, height: height, bytesPerRow: width) }
    }
}

extension CaptureSessionTests {
    /// The guide's session with a video data output, plus a photo output.
    static func makePhotoSession(preset: AVCaptureSession.Preset, collector: CaptureFrameCollector, label: String)
        throws -> (AVCaptureSession, AVCapturePhotoOutput, AVCaptureDevice) {
        let (session, _, device) = try makeSession(preset: preset, collector: collector, queue: DispatchQueue(label: label))
        let photoOutput = AVCapturePhotoOutput()
        #expect(session.canAddOutput(photoOutput))
        session.addOutput(photoOutput)
        return (session, photoOutput, device)
    }

    /// The frame index in a JPEG photo's pixels, as ffmpeg decodes them.
    static func jpegFrameIndex(of photo: AVCapturePhoto?) throws -> Int {
        let data = try #require(photo?.fileDataRepresentation())
        return try #require(try DecodedImage(data).index)
    }

    static let photoEvents = ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                              "didFinishCapture"]

    @Test(arguments: [(AVCaptureSession.Preset.vga640x480, 640, 480), (.hd1280x720, 1280, 720), (.hd1920x1080, 1920, 1080)])
    func photoIsAJPEGOfAFrameTakenAfterTheCall(preset: AVCaptureSession.Preset, width: Int, height: Int) throws {
        let collector = CaptureFrameCollector()
        let (session, photoOutput, device) = try Self.makePhotoSession(preset: preset, collector: collector, label: "photo frames")
        let dimensions = CMVideoDimensions(width: Int32(width), height: Int32(height))
        #expect(device.activeFormat.supportedMaxPhotoDimensions == [dimensions])
        #expect(photoOutput.maxPhotoDimensions == dimensions)
        #expect(photoOutput.availablePhotoCodecTypes == [.jpeg])
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 3 })

        let settings = AVCapturePhotoSettings()
        let recorder = PhotoCaptureRecorder()
        let before = try #require(collector.frames.compactMap(\.index).max())
        let calledAt = CMClockGetTime(CMClock.hostTimeClock)
        photoOutput.capturePhoto(with: settings, delegate: recorder)
        let calledBy = CMClockGetTime(CMClock.hostTimeClock)
        try #require(recorder.waitUntilFinished())

        // Apple's order, each call once, all for this request.
        #expect(recorder.events == Self.photoEvents)
        #expect(recorder.resolvedIDs == Array(repeating: settings.uniqueID, count: 5))
        #expect(recorder.errors.allSatisfy { $0 == nil })
        let photo = try #require(recorder.photo)
        #expect(photo.resolvedSettings.photoDimensions == dimensions && !photo.resolvedSettings.isFlashEnabled)
        #expect(photo.pixelBuffer == nil && photo.photoCount == 1)

        // ffprobe: a JPEG of the format's still size, carrying the metadata as EXIF.
        let data = try #require(photo.fileDataRepresentation())
        let decoded = try DecodedImage(data)
        #expect(decoded.codec == "mjpeg" && decoded.width == width && decoded.height == height)
        #expect(decoded.tags["PixelXDimension"] == "\(width)" && decoded.tags["PixelYDimension"] == "\(height)")
        #expect(decoded.tags["Orientation"] == "1" && decoded.tags["Model"] == device.modelID)
        let exif = try #require(photo.metadata[kCGImagePropertyExifDictionary] as? [String: Any])
        #expect(exif[kCGImagePropertyExifPixelXDimension] as? Int == width)
        #expect(photo.metadata[kCGImagePropertyOrientation] as? Int == 1)

        // The photo's frame reached the outputs after the call: later than every frame the video
        // output had delivered before it, no later than the first frame due after the call returned.
        let index = try #require(decoded.index, "the photo carries a readable frame index")
        #expect(collector.wait { frames, _ in frames.contains { $0.time > calledBy } })
        let after = try #require(collector.frames.first { $0.time > calledBy }?.index)
        #expect(before < index && index <= after, "photo frame \(index), video frames \(before) before and \(after) after")
        // Its timestamp is that frame's time on the session clock, taken after the call.
        #expect(photo.timestamp >= calledAt)
        let first = try #require(collector.frames.first)
        let firstIndex = try #require(first.index)
        #expect(photo.timestamp == CMTimeAdd(first.time, CMTimeMultiply(first.duration, multiplier: Int32(index - firstIndex))))
    }

    @Test func twoCapturesInARowGiveTwoPhotosOfSuccessiveFrames() throws {
        let collector = CaptureFrameCollector()
        let (session, photoOutput, _) = try Self.makePhotoSession(preset: .hd1280x720, collector: collector, label: "two photos")
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 2 })

        let first = AVCapturePhotoSettings(), second = AVCapturePhotoSettings(from: first)
        #expect(second.uniqueID > first.uniqueID)
        let recorders = [PhotoCaptureRecorder(), PhotoCaptureRecorder()]
        photoOutput.capturePhoto(with: first, delegate: recorders[0])
        photoOutput.capturePhoto(with: second, delegate: recorders[1])
        for recorder in recorders { try #require(recorder.waitUntilFinished()) }

        #expect(recorders[0].resolvedIDs == Array(repeating: first.uniqueID, count: 5))
        #expect(recorders[1].resolvedIDs == Array(repeating: second.uniqueID, count: 5))
        #expect(recorders.allSatisfy { $0.events == Self.photoEvents })
        let photos = try recorders.map { try #require($0.photo) }
        #expect(photos[0] !== photos[1])
        let indices = try photos.map(Self.jpegFrameIndex)
        #expect(indices[0] < indices[1], "each request takes its own, later frame: \(indices)")
        #expect(photos[0].timestamp < photos[1].timestamp)
    }

    @Test func photosDoNotDisturbTheVideoDataOutput() throws {
        let collector = CaptureFrameCollector()
        let (session, photoOutput, _) = try Self.makePhotoSession(preset: .hd1920x1080, collector: collector, label: "undisturbed")
        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 2 })
        let start = collector.frames.count

        // A burst of photos, uncompressed and JPEG, all taken while the video output runs.
        let formats: [[String: Any]?] = [nil, [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA],
                                         [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange],
                                         nil, nil, nil]
        let recorders = formats.map { _ in PhotoCaptureRecorder() }
        for (format, recorder) in zip(formats, recorders) {
            photoOutput.capturePhoto(with: AVCapturePhotoSettings(format: format), delegate: recorder)
        }
        for recorder in recorders { try #require(recorder.waitUntilFinished()) }
        #expect(collector.wait { frames, _ in frames.count >= start + 30 })
        session.stopRunning()

        // The video output kept delivering every frame, in order, during the burst; any frame
        // missing (a loaded machine) was reported as dropped, never lost silently.
        let frames = collector.frames
        let indices = frames.compactMap(\.index)
        #expect(indices.count == frames.count && indices == indices.sorted())
        let gaps = zip(indices, indices.dropFirst()).map { $1 - $0 - 1 }.reduce(0, +)
        #expect(collector.drops.count >= gaps)
        #expect(frames.allSatisfy { $0.width == 1920 && $0.height == 1080 })

        // The uncompressed photos carry their frame's pixels in the format asked for.
        let bgra = try #require(recorders[1].photo?.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(bgra) == kCVPixelFormatType_32BGRA)
        #expect(CVPixelBufferGetWidth(bgra) == 1920 && CVPixelBufferGetHeight(bgra) == 1080)
        let yuv = try #require(recorders[2].photo?.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(yuv) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        let indexOf = { (buffer: CVPixelBuffer) -> Int? in
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            return FrameIndexBarcode.read(from: buffer)
        }
        let bgraIndex = try #require(indexOf(bgra)), yuvIndex = try #require(indexOf(yuv))
        #expect(bgraIndex < yuvIndex)
        #expect(recorders[1].photo?.fileDataRepresentation() == nil)
        let image = try #require(recorders[2].photo?.cgImageRepresentation())
        #expect(image.width == 1920 && image.height == 1080)
        // The JPEG photos came from later frames still, each its own.
        let jpegIndices = try [0, 3, 4, 5].map { try Self.jpegFrameIndex(of: recorders[$0].photo) }
        #expect(jpegIndices[0] < bgraIndex && yuvIndex < jpegIndices[1])
        #expect(jpegIndices == jpegIndices.sorted() && Set(jpegIndices).count == 4)
    }

    @Test func photoOfAStoppedSessionFailsThroughTheDelegate() throws {
        let collector = CaptureFrameCollector()
        let (session, photoOutput, _) = try Self.makePhotoSession(preset: .vga640x480, collector: collector, label: "stopped")
        #expect(!session.isRunning)
        let recorder = PhotoCaptureRecorder()
        photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: recorder)
        try #require(recorder.waitUntilFinished())
        #expect(recorder.events == ["willBeginCapture", "didFinishProcessingPhoto", "didFinishCapture"])
        #expect(recorder.errors.map { $0?.code } == [.sessionNotRunning, .sessionNotRunning])
        let photo = try #require(recorder.photo)
        #expect(photo.fileDataRepresentation() == nil && !photo.timestamp.isValid)
        #expect(photo.metadata[kCGImagePropertyExifDictionary] != nil)
    }

    @Test func portraitConnectionSetsTheEXIFOrientation() throws {
        let collector = CaptureFrameCollector()
        let (session, photoOutput, _) = try Self.makePhotoSession(preset: .vga640x480, collector: collector, label: "portrait")
        let connection = try #require(photoOutput.connection(with: .video))
        connection.videoOrientation = .portrait
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings()
        settings.metadata = [kCGImagePropertyTIFFDictionary: [kCGImagePropertyTIFFMake: "Acme"]]
        let recorder = PhotoCaptureRecorder()
        photoOutput.capturePhoto(with: settings, delegate: recorder)
        try #require(recorder.waitUntilFinished())
        let photo = try #require(recorder.photo)
        #expect(photo.metadata[kCGImagePropertyOrientation] as? Int == 6)
        let decoded = try DecodedImage(try #require(photo.fileDataRepresentation()))
        #expect(decoded.tags["Orientation"] == "6" && decoded.tags["Make"] == "Acme")
        // The pixels stay as the camera delivered them; the orientation says how to show them.
        #expect(decoded.width == 640 && decoded.height == 480)

        // A customizer's metadata replaces the photo's own in the file (ffprobe reads it back).
        final class Retitle: AVCapturePhotoFileDataRepresentationCustomizer {
            func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? {
                var metadata = photo.metadata
                metadata[kCGImagePropertyTIFFDictionary] = [kCGImagePropertyTIFFMake: "Zenith"]
                return metadata
            }
        }
        let customized = try DecodedImage(try #require(photo.fileDataRepresentation(with: Retitle())))
        #expect(customized.tags["Make"] == "Zenith" && customized.tags["Orientation"] == "6")
        final class Keep: AVCapturePhotoFileDataRepresentationCustomizer {}
        #expect(try DecodedImage(try #require(photo.fileDataRepresentation(with: Keep()))).tags["Make"] == "Acme")
    }

    @Test func photoOutputCapabilitiesFollowItsCamera() throws {
        let output = AVCapturePhotoOutput()
        #expect(output.availablePhotoCodecTypes.isEmpty && output.availablePhotoPixelFormatTypes.isEmpty)
        #expect(output.supportedFlashModes.isEmpty && output.maxPhotoDimensions == CMVideoDimensions())

        let session = AVCaptureSession()
        session.sessionPreset = .hd1280x720
        let camera = try #require(AVCaptureDevice.default(for: .video))
        #expect(!camera.hasFlash && !camera.isFlashAvailable)
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        #expect(output.availablePhotoCodecTypes == [.jpeg])
        #expect(output.availablePhotoPixelFormatTypes == [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                                                          kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                                                          kCVPixelFormatType_32BGRA])
        #expect(output.availablePhotoFileTypes == [.jpg] && output.supportedPhotoCodecTypes(for: .jpg) == [.jpeg])
        #expect(output.supportedPhotoCodecTypes(for: .mov).isEmpty)
        #expect(output.supportedFlashModes == [.off])
        #expect(output.maxPhotoDimensions == CMVideoDimensions(width: 1280, height: 720))
        output.maxPhotoDimensions = CMVideoDimensions(width: 1280, height: 720)
        // A new active format brings its own photo size.
        session.sessionPreset = .hd1920x1080
        #expect(output.maxPhotoDimensions == CMVideoDimensions(width: 1920, height: 1080))

        let settings = AVCapturePhotoSettings()
        #expect(settings.flashMode == .off && settings.maxPhotoDimensions == CMVideoDimensions())
        #expect(settings.format?[AVVideoCodecKey] as? AVVideoCodecType == .jpeg && settings.processedFileType == nil)
        settings.flashMode = .auto
        let copy = AVCapturePhotoSettings(from: settings)
        #expect(copy.flashMode == .auto && copy.uniqueID != settings.uniqueID)
    }

    @available(*, deprecated)
    @Test func stillImageOutputAsInTheGuide() throws {
        let collector = CaptureFrameCollector()
        let (session, _, _) = try Self.makeSession(preset: .hd1280x720, collector: collector,
                                                   queue: DispatchQueue(label: "still frames"))
        let stillImageOutput = AVCaptureStillImageOutput()
        stillImageOutput.outputSettings = [AVVideoCodecKey: AVVideoCodecJPEG]
        #expect(stillImageOutput.availableImageDataCodecTypes == [.jpeg])
        #expect(stillImageOutput.availableImageDataCVPixelFormatTypes.map(\.uint32Value).contains(kCVPixelFormatType_32BGRA))
        session.addOutput(stillImageOutput)

        // The guide's connection search.
        var videoConnection: AVCaptureConnection?
        for connection in stillImageOutput.connections {
            for port in connection.inputPorts where port.mediaType == .video {
                videoConnection = connection
            }
        }
        let connection = try #require(videoConnection)

        // Before the session runs, the handler gets the error.
        let refused = StillImageResult()
        stillImageOutput.captureStillImageAsynchronously(from: connection, completionHandler: refused.complete)
        try #require(refused.wait())
        #expect(refused.buffer == nil && (refused.error as? AVError)?.code == .sessionNotRunning)

        session.startRunning()
        defer { session.stopRunning() }
        #expect(collector.wait { frames, _ in frames.count >= 2 })
        let before = try #require(collector.frames.compactMap(\.index).max())
        let result = StillImageResult()
        stillImageOutput.captureStillImageAsynchronously(from: connection, completionHandler: result.complete)
        #expect(stillImageOutput.isCapturingStillImage)
        try #require(result.wait())
        #expect(!stillImageOutput.isCapturingStillImage)
        #expect(result.error == nil)
        let buffer = try #require(result.buffer)
        let description = try #require(CMSampleBufferGetFormatDescription(buffer))
        #expect(CMFormatDescriptionGetMediaSubType(description) == kCMVideoCodecType_JPEG)
        #expect(CMVideoFormatDescriptionGetDimensions(description) == CMVideoDimensions(width: 1280, height: 720))
        let exif = try #require(CMGetAttachment(buffer, key: kCGImagePropertyExifDictionary, attachmentModeOut: nil)
            as? [String: Any])
        #expect(exif[kCGImagePropertyExifPixelYDimension] as? Int == 720)

        // The data representation is the JPEG with the attachments written in as EXIF.
        let data = try #require(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer))
        let decoded = try DecodedImage(data)
        #expect(decoded.codec == "mjpeg" && decoded.width == 1280 && decoded.height == 720)
        #expect(decoded.tags["PixelXDimension"] == "1280" && decoded.tags["Make"] == "OpenAVFoundation")
        let index = try #require(decoded.index)
        #expect(index > before)
        let first = try #require(collector.frames.first)
        #expect(CMSampleBufferGetPresentationTimeStamp(buffer)
            == CMTimeAdd(first.time, CMTimeMultiply(first.duration, multiplier: Int32(index - (first.index ?? 0)))))

        // Uncompressed: the buffer holds the pixels.
        stillImageOutput.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        let raw = StillImageResult()
        stillImageOutput.captureStillImageAsynchronously(from: connection, completionHandler: raw.complete)
        try #require(raw.wait())
        let pixels = try #require(raw.buffer.flatMap(CMSampleBufferGetImageBuffer))
        #expect(CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA && CVPixelBufferGetWidth(pixels) == 1280)
        CVPixelBufferLockBaseAddress(pixels, .readOnly)
        #expect((FrameIndexBarcode.read(from: pixels) ?? 0) > index)
        CVPixelBufferUnlockBaseAddress(pixels, .readOnly)
    }
}

/// The result of one still image capture, waited for.
final class StillImageResult: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private(set) var buffer: CMSampleBuffer?
    private(set) var error: (any Error)?

    func complete(_ buffer: CMSampleBuffer?, _ error: (any Error)?) {
        self.buffer = buffer
        self.error = error
        done.signal()
    }

    func wait() -> Bool { done.wait(timeout: .now() + 10) == .success }
}
