import Foundation
import Testing
@testable import OpenAVFoundation

/// The Test Pattern Camera's static parts at 640x480, as it draws them: 75% colour bars over
/// the top two thirds (below the barcode band, above the moving square), a black-to-white ramp
/// across the bottom third.
enum TestPatternGeometry {
    static let width = 640, height = 480
    static let bars: [(Int, Int, Int)] = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191)]

    /// Points of the camera's picture with the colour drawn there.
    static var landmarks: [(x: Int, y: Int, rgb: (Int, Int, Int))] {
        let barPoints = bars.indices.map { index in (x: (2 * index + 1) * width / 14, y: 100, rgb: bars[index]) }
        let rampPoints = [64, 320, 576].map { x -> (x: Int, y: Int, rgb: (Int, Int, Int)) in
            let level = x * 255 / (width - 1)
            return (x, 420, (level, level, level))
        }
        return barPoints + rampPoints
    }

    /// Where a point of the camera's picture lands after a clockwise turn and a mirroring.
    static func turned(_ x: Int, _ y: Int, degrees: Int, mirrored: Bool) -> (Int, Int) {
        var (tx, ty, turnedWidth) = switch degrees {
        case 90: (height - 1 - y, x, height)
        case 180: (width - 1 - x, height - 1 - y, width)
        case 270: (y, width - 1 - x, height)
        default: (x, y, width)
        }
        if mirrored { tx = turnedWidth - 1 - tx }
        return (tx, ty)
    }

    /// Checks that the pattern's colours are where a turn, a mirroring and a scale put them in
    /// a delivered picture (BGRA colours, or the BT.709 video-range luma of 4:2:0).
    static func expectLandmarks(in picture: CaptureFrameSampler.Picture, degrees: Int, mirrored: Bool = false,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let scale = Double(picture.width) / Double(degrees % 180 == 90 ? height : width)
        for landmark in landmarks {
            let (tx, ty) = turned(landmark.x, landmark.y, degrees: degrees, mirrored: mirrored)
            let (x, y) = (Int(Double(tx) * scale), Int(Double(ty) * scale))
            let expected = landmark.rgb
            if picture.pixelFormat == kCVPixelFormatType_32BGRA {
                let (r, g, b) = picture.rgb(x, y)
                #expect(abs(r - expected.0) <= 12 && abs(g - expected.1) <= 12 && abs(b - expected.2) <= 12,
                        "\(degrees)° mirrored \(mirrored): (\(r), \(g), \(b)) at \(x),\(y) for \(expected)",
                        sourceLocation: sourceLocation)
            } else {
                let luma = 16 + 219 * (0.2126 * Double(expected.0) + 0.7152 * Double(expected.1)
                    + 0.0722 * Double(expected.2)) / 255
                #expect(abs(Double(picture.luma(x, y)) - luma) <= 3,
                        "\(degrees)° mirrored \(mirrored): luma \(picture.luma(x, y)) at \(x),\(y), want \(luma)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Whether a turned (and perhaps scaled) picture is a flash frame: the dark end of the ramp
    /// as bright as its bright end (whatever the exposure).
    static func isFlash(_ picture: CaptureFrameSampler.Picture, degrees: Int, mirrored: Bool = false) -> Bool {
        let scale = Double(picture.width) / Double(degrees % 180 == 90 ? height : width)
        func level(_ x: Int) -> Int {
            let (tx, ty) = turned(x, 420, degrees: degrees, mirrored: mirrored)
            let (px, py) = (Int(Double(tx) * scale), Int(Double(ty) * scale))
            return picture.bytesPerPixel == 4 ? picture.rgb(px, py).0 : picture.luma(px, py)
        }
        return level(64) * 5 > level(576) * 4
    }
}

extension CaptureSessionTests {
    /// The default camera at 640x480 into a video data output with `videoSettings`, whose
    /// pictures `sampler` keeps.
    static func makeSampledSession(videoSettings: [String: Any], sampler: CaptureFrameSampler) throws
        -> (AVCaptureSession, AVCaptureVideoDataOutput) {
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        let device = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = videoSettings
        output.setSampleBufferDelegate(sampler, queue: DispatchQueue(label: "sampled frames"))
        session.addOutput(output)
        return (session, output)
    }

    /// Every orientation and mirroring, set while running, on BGRA and on the camera's own
    /// '420v' (a pure pixel move, no conversion); the colours of the pattern's bars and ramp
    /// must be where the turn puts them.
    @Test(arguments: [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
    func orientationAndMirroringTurnTheDeliveredPictures(pixelFormat: OSType) throws {
        let sampler = CaptureFrameSampler()
        let (session, output) = try Self.makeSampledSession(
            videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat], sampler: sampler)
        let connection = try #require(output.connection(with: .video))
        #expect(connection.isVideoOrientationSupported && connection.isVideoMirroringSupported)
        #expect(connection.videoOrientation == .landscapeRight && connection.videoRotationAngle == 0)
        #expect(connection.automaticallyAdjustsVideoMirroring && !connection.isVideoMirrored)
        #expect([0, 90, 180, 270].allSatisfy { connection.isVideoRotationAngleSupported(CGFloat($0)) })
        #expect(!connection.isVideoRotationAngleSupported(45))
        connection.automaticallyAdjustsVideoMirroring = false

        session.startRunning()
        defer { session.stopRunning() }
        let orientations: [AVCaptureVideoOrientation: Int] = [.landscapeRight: 0, .portrait: 90, .landscapeLeft: 180, .portraitUpsideDown: 270]
        for degrees in [90, 0, 270, 180] {
            for mirrored in [false, true] {
                // Orientation and angle are one setting: set one, read the other.
                if mirrored {
                    connection.videoRotationAngle = CGFloat(degrees)
                    #expect(orientations[connection.videoOrientation] == degrees)
                } else {
                    connection.videoOrientation = orientations.first { $0.value == degrees }!.key
                    #expect(connection.videoRotationAngle == CGFloat(degrees))
                }
                connection.isVideoMirrored = mirrored
                // A frame converted after the change (the one in flight may predate it).
                let picture = try #require(sampler.picture(after: sampler.count + 1) {
                    !TestPatternGeometry.isFlash($0, degrees: degrees, mirrored: mirrored)
                })
                let swaps = degrees % 180 == 90
                #expect(picture.width == (swaps ? 480 : 640) && picture.height == (swaps ? 640 : 480))
                #expect(picture.pixelFormat == pixelFormat)
                TestPatternGeometry.expectLandmarks(in: picture, degrees: degrees, mirrored: mirrored)
            }
        }
    }

    @Test func mirroringFollowsAFrontCameraAndStabilizationStaysOff() throws {
        try Self.withAddedCamera("front-camera", position: .front) { _, front in
            #expect(front.position == .front)
            #expect(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) === front)
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: front))
            let output = AVCaptureVideoDataOutput()
            session.addOutput(output)
            let connection = try #require(output.connection(with: .video))
            #expect(connection.automaticallyAdjustsVideoMirroring && connection.isVideoMirrored)
            connection.automaticallyAdjustsVideoMirroring = false
            #expect(connection.isVideoMirrored, "turning the automatic off keeps its choice")
            connection.isVideoMirrored = false
            #expect(!connection.isVideoMirrored)

            #expect(!connection.isVideoStabilizationSupported)
            connection.preferredVideoStabilizationMode = .standard
            #expect(connection.preferredVideoStabilizationMode == .standard)
            #expect(connection.activeVideoStabilizationMode == .off)
            #expect(front.activeFormat.isVideoStabilizationModeSupported(.off))
            #expect(!front.activeFormat.isVideoStabilizationModeSupported(.standard))
        }
    }
}
