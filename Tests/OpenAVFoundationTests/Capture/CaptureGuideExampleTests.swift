import Foundation
import Testing
import OpenAVFoundation

// The programming guide's "Putting It All Together: Capturing Video Frames as UIImage Objects",
// in Swift, with CGImage in place of UIImage, compiled against the plain (not @testable) import:
// Apple code that works unchanged.

/// The guide's "Converting CMSampleBuffer to a UIImage Object", returning a CGImage.
func imageFromSampleBuffer(_ sampleBuffer: CMSampleBuffer) -> CGImage? {
    // Get a CMSampleBuffer's Core Video image buffer for the media data
    guard let imageBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return nil }
    // Lock the base address of the pixel buffer
    CVPixelBufferLockBaseAddress(imageBuffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(imageBuffer, .readOnly) }
    // Get the number of bytes per row for the pixel buffer, the pixel buffer width and height
    let baseAddress = CVPixelBufferGetBaseAddress(imageBuffer)
    let bytesPerRow = CVPixelBufferGetBytesPerRow(imageBuffer)
    let width = CVPixelBufferGetWidth(imageBuffer)
    let height = CVPixelBufferGetHeight(imageBuffer)
    // Create a device-dependent RGB color space
    let colorSpace = CGColorSpaceCreateDeviceRGB()
    // Create a bitmap graphics context with the sample buffer data
    let context = CGContext(data: baseAddress, width: width, height: height, bitsPerComponent: 8,
                            bytesPerRow: bytesPerRow, space: colorSpace,
                            bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)
    // Create a Quartz image from the pixel data in the bitmap graphics context
    return context?.makeImage()
}

/// The guide's delegate: implements only `captureOutput(_:didOutput:from:)`, as apps do.
final class GuideFrameGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var images: [(image: CGImage, time: CMTime)] = []

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let image = imageFromSampleBuffer(sampleBuffer) else { return }
        // Add your code here that uses the image.
        condition.withLock {
            images.append((image, CMSampleBufferGetPresentationTimeStamp(sampleBuffer)))
            condition.broadcast()
        }
    }

    /// Waits (up to 5 s) for `count` images.
    func wait(for count: Int) -> [(image: CGImage, time: CMTime)] {
        let deadline = Date().addingTimeInterval(5)
        condition.lock()
        defer { condition.unlock() }
        while images.count < count && condition.wait(until: deadline) {}
        return images
    }
}

extension CaptureSessionTests {
    @available(*, deprecated, message: "uses the guide's deprecated minFrameDuration")
    @Test func guideExampleCapturesFramesAsImages() async throws {
        // Create and Configure a Capture Session
        let session = AVCaptureSession()
        session.sessionPreset = .medium

        // Create and Configure the Device and Device Input
        let device = try #require(AVCaptureDevice.default(for: .video))
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)

        // Create and Configure the Video Data Output: BGRA, capped at 15 fps
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.minFrameDuration = CMTimeMake(value: 1, timescale: 15)
        let grabber = GuideFrameGrabber()
        let queue = DispatchQueue(label: "MyQueue")
        output.setSampleBufferDelegate(grabber, queue: queue)

        // Starting and Stopping Recording: after access is granted
        let granted = await withCheckedContinuation { continuation in
            AVCaptureDevice.requestAccess(for: .video) { granted in continuation.resume(returning: granted) }
        }
        #expect(granted)
        session.startRunning()
        defer { session.stopRunning() }
        let images = grabber.wait(for: 8)
        session.stopRunning()
        try #require(images.count >= 8)

        // Images of the medium preset's size, 1/15 s apart (two camera frames; more only if the
        // machine fell behind and frames were dropped).
        let gaps = zip(images, images.dropFirst()).map { CMTimeSubtract($1.time, $0.time) }
        #expect(gaps.filter { $0 == CMTimeMake(value: 1, timescale: 15) }.count >= gaps.count / 2, "mostly 15 fps: \(gaps.map(\.seconds))")
        #expect(gaps.allSatisfy { $0 >= CMTimeMake(value: 1, timescale: 15) }, "never faster than 15 fps")
        // A frame at a whole second is the camera's all-white flash frame; look at one between.
        let image = try #require(images.first { $0.time.value % Int64($0.time.timescale) != 0 }).image
        #expect(image.width == 640 && image.height == 480 && image.bitsPerPixel == 32)
        // The picture is the test pattern: its first bar is 75% white, its fourth green.
        let bytes = try #require(image.dataProvider?.data) as Data
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let offset = y * image.bytesPerRow + x * 4
            return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
        }
        let white = rgb(45, 100), green = rgb(320, 100)
        #expect(abs(white.0 - 191) <= 8 && abs(white.1 - 191) <= 8 && abs(white.2 - 191) <= 8, "\(white)")
        #expect(green.0 <= 12 && abs(green.1 - 191) <= 8 && green.2 <= 12, "\(green)")
    }
}
