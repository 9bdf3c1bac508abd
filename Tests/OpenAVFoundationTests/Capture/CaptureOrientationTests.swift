import Foundation
import Testing
import TestSupport
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

extension CaptureSessionTests {
    /// A movie recorded through a turned or mirrored connection keeps the camera's pixels and
    /// carries the turn as its track's display matrix, as Apple records it: ffprobe reads the
    /// matrix, ffmpeg's decode with autorotation shows the portrait picture upright, and the
    /// asset's `preferredTransform` is the connection's turn.
    @Test(arguments: [(90, false), (0, true), (270, true)])
    func recordedMoviesCarryTheConnectionsOrientation(degrees: Int, mirrored: Bool) async throws {
        let collector = CaptureFrameCollector()
        let (session, movie) = try Self.recordingSession(preset: .vga640x480, audio: false, collector: collector,
                                                         queue: DispatchQueue(label: "frames"))
        let connection = try #require(movie.connection(with: .video))
        connection.videoRotationAngle = CGFloat(degrees)
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = mirrored
        movie.maxRecordedDuration = CMTime(value: 1, timescale: 2)
        let events = RecordingEvents()
        let url = Self.movieURL("turned-\(degrees)-\(mirrored).mov")
        session.startRunning()
        movie.startRecording(to: url, recordingDelegate: events)
        #expect(try events.finishError(of: url)?.code == .maximumDurationReached)
        session.stopRunning()

        // The matrix as ffprobe prints it (rows "index: a b u", "c d v", "tx ty w"; 16.16).
        let stream = try #require((try Fixtures.probe(url)["streams"] as? [[String: Any]])?.first)
        #expect(stream["width"] as? Int == 640 && stream["height"] as? Int == 480, "the pixels are not turned")
        let printed = try #require((stream["side_data_list"] as? [[String: Any]])?.first?["displaymatrix"] as? String)
        let matrix = printed.split(whereSeparator: \.isNewline).flatMap { (row: Substring) -> [Int] in row.split(separator: " ").dropFirst().compactMap { Int($0) } }
        let one = 65536
        let expected: [Int] = switch (degrees, mirrored) {
        case (90, false): [0, one, 0, -one, 0, 0, 480 * one, 0, 1 << 30]
        case (0, true): [-one, 0, 0, 0, one, 0, 640 * one, 0, 1 << 30]
        default: [0, -one, 0, -one, 0, 0, 480 * one, 640 * one, 1 << 30]  // 270° then a flip: a transpose
        }
        #expect(matrix == expected)

        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        let transform = try await track.load(.preferredTransform)
        #expect(transform.a * 65536 == CGFloat(expected[0]) && transform.b * 65536 == CGFloat(expected[1]))
        #expect(transform.c * 65536 == CGFloat(expected[3]) && transform.d * 65536 == CGFloat(expected[4]))
        #expect(transform.tx * 65536 == CGFloat(expected[6]) && transform.ty * 65536 == CGFloat(expected[7]))

        // FFmpeg 5.1's autorotation turns but does not flip: check the upright picture of the
        // portrait movie only; the mirrored ones keep the camera's pixels as they were.
        let shown = degrees == 90 && !mirrored
        let (width, height) = shown ? (480, 640) : (640, 480)
        let bytes = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error"] + (shown ? [] : ["-noautorotate"]) + [
            "-i", url.path, "-frames:v", "3", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ])
        // The luma planes, as decoded (no colour conversion between the file and the check).
        let frameSize = width * height * 3 / 2
        #expect(bytes.count == 3 * frameSize)
        let pictures = (0..<(bytes.count / frameSize)).map { (number: Int) -> CaptureFrameSampler.Picture in
            let luma = [UInt8](bytes[(number * frameSize)..<(number * frameSize + width * height)])
            return CaptureFrameSampler.Picture(width: width, height: height,
                                               pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                                               time: .zero, bytes: luma)
        }
        let picture = try #require(pictures.first { !TestPatternGeometry.isFlash($0, degrees: shown ? 90 : 0) })
        TestPatternGeometry.expectLandmarks(in: picture, degrees: shown ? 90 : 0)
    }
}

extension CaptureSessionTests {
    /// A data output's rectangles in its own pictures (pixels, turned as the connection turns
    /// them) and in metadata coordinates (0 to 1 on the camera's unturned picture). The oracle is
    /// the geometry of a quarter turn: turned 90° clockwise, the unturned point (x, y) lands at
    /// (1 - y, x); mirrored, x becomes 1 - x.
    @Test func aDataOutputConvertsRectanglesBetweenItsPicturesAndMetadataCoordinates() throws {
        let (_, output) = try Self.makeSampledSession(videoSettings: [:], sampler: CaptureFrameSampler())
        let connection = try #require(output.connection(with: .video))
        let topLeft = CGRect(x: 0, y: 0, width: 0.5, height: 0.25)
        // Unturned 640x480: the metadata rectangle scaled.
        #expect(output.outputRectConverted(fromMetadataOutputRect: topLeft) == CGRect(x: 0, y: 0, width: 320, height: 120))
        connection.videoOrientation = .portrait
        // 480x640; the top-left quarter-strip lands on the right: x from 1 - 0.25 to 1, y from 0 to 0.5.
        let portrait = output.outputRectConverted(fromMetadataOutputRect: topLeft)
        #expect(portrait == CGRect(x: 360, y: 0, width: 120, height: 320))
        #expect(output.metadataOutputRectConverted(fromOutputRect: portrait) == topLeft)
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        // Mirrored after the turn: x from 0 to 0.25.
        #expect(output.outputRectConverted(fromMetadataOutputRect: topLeft) == CGRect(x: 0, y: 0, width: 120, height: 320))
        // Scaled to the size the settings ask for (240x320): the same fractions of it.
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
                                kCVPixelBufferWidthKey as String: 240, kCVPixelBufferHeightKey as String: 320]
        #expect(output.outputRectConverted(fromMetadataOutputRect: topLeft) == CGRect(x: 0, y: 0, width: 60, height: 160))
        #expect(output.metadataOutputRectConverted(fromOutputRect: CGRect(x: 0, y: 0, width: 60, height: 160)) == topLeft)
        // An output without video leaves rectangles as they are.
        #expect(AVCaptureAudioDataOutput().outputRectConverted(fromMetadataOutputRect: topLeft) == topLeft)
    }
}
