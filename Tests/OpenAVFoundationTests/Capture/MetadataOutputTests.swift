import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVCaptureMetadataOutput` reading codes that an independent generator drew (zint), shown to
/// a capture session by the File Camera: each code's text as the generator was given it (its
/// check digit as its standard computes it), its type by Apple's names, its corners within 3
/// pixels of the drawn code's, at two sizes and four rotations; `rectOfInterest` keeps out the
/// codes outside it. And the File Camera itself against ffmpeg's decode of the clip it plays.
@Suite(.timeLimit(.minutes(5))) struct MetadataOutputTests {
    /// A code for zint to draw: its symbology number and data, the type Apple reports it as and
    /// the text it reads.
    struct DrawnCode: Sendable {
        let zint: Int
        let data: String
        let type: AVMetadataObject.ObjectType
        let text: String
    }

    static let codes: [DrawnCode] = [
        DrawnCode(zint: 58, data: "OpenAVFoundation QR", type: .qr, text: "OpenAVFoundation QR"),
        DrawnCode(zint: 97, data: "12345", type: .microQR, text: "12345"),
        DrawnCode(zint: 92, data: "OpenAV Aztec", type: .aztec, text: "OpenAV Aztec"),
        DrawnCode(zint: 71, data: "OpenAV DataMatrix", type: .dataMatrix, text: "OpenAV DataMatrix"),
        DrawnCode(zint: 55, data: "OpenAV PDF417", type: .pdf417, text: "OpenAV PDF417"),
        DrawnCode(zint: 8, data: "OPENAV39", type: .code39, text: "OPENAV39"),
        DrawnCode(zint: 25, data: "OPENAV93", type: .code93, text: "OPENAV93"),
        DrawnCode(zint: 20, data: "OpenAV128", type: .code128, text: "OpenAV128"),
        // EAN and UPC: the check digit their standard computes (weights 3 and 1).
        DrawnCode(zint: 13, data: "1234567", type: .ean8, text: "12345670"),
        DrawnCode(zint: 13, data: "590123412345", type: .ean13, text: "5901234123457"),
        // UPC-A is reported as EAN-13, a zero ahead.
        DrawnCode(zint: 34, data: "01234567890", type: .ean13, text: "0012345678905"),
        DrawnCode(zint: 37, data: "0123456", type: .upce, text: "01234565"),
        DrawnCode(zint: 3, data: "12345678", type: .interleaved2of5, text: "12345678"),
        // ITF-14 is Interleaved 2 of 5 of 14 digits, the last its check digit (drawn as such:
        // zint's ITF-14 symbology adds a bearer box around the bars, whose corners are not the
        // code's).
        DrawnCode(zint: 3, data: "12345678901231", type: .itf14, text: "12345678901231"),
        DrawnCode(zint: 18, data: "A123456B", type: .codabar, text: "A123456B"),
        // GS1 DataBar: the element string, the GTIN-14 after its application identifier 01.
        DrawnCode(zint: 29, data: "0123456789012", type: .gs1DataBar, text: "0101234567890128"),
        DrawnCode(zint: 31, data: "[01]98898765432106[3202]012345", type: .gs1DataBarExpanded, text: "01988987654321063202012345"),
    ]

    /// The codes zxing-cpp 1.4 finds one of in a picture, near its middle: drawn alone.
    static let singleCodes: Set<AVMetadataObject.ObjectType> = [.dataMatrix, .aztec]

    /// A code drawn into a picture: where (its dark pixels' bounding box, in pixels).
    struct Placed: Sendable {
        let code: DrawnCode
        let box: CGRect
    }

    /// A gray picture of `codes` drawn by zint at `scale` turned by `rotation` degrees, laid
    /// out in rows 40 px apart on white, as a PGM file; where each code is.
    static func picture(of codes: [DrawnCode], scale: Int, rotation: Int) throws -> (URL, CGSize, [Placed]) {
        let folder = Fixtures.folder.appendingPathComponent("codes-\(codes.map(\.zint))-\(scale)-\(rotation)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var drawn: [(DrawnCode, width: Int, height: Int, pixels: [UInt8])] = []
        for (index, code) in codes.enumerated() {
            let png = folder.appendingPathComponent("\(index).png")
            _ = try Fixtures.run("zint", ["-b", String(code.zint), "-d", code.data, "--scale=\(scale)", "--notext",
                                          "--rotate=\(rotation)", "-o", png.path])
            let size = try String(decoding: Fixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height",
                                                                     "-of", "csv=p=0", png.path]), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
            let pixels = [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"]))
            drawn.append((code, size[0], size[1], pixels))
        }
        // Rows of codes 40 px apart, at most 1600 px wide (even sizes for 4:2:0).
        let margin = 40, rowLimit = 1600
        var placements: [(Int, x: Int, y: Int)] = []
        var (x, y, rowHeight, width) = (margin, margin, 0, 0)
        for (index, code) in drawn.enumerated() {
            if x + code.width + margin > rowLimit && x > margin {
                (x, y, rowHeight) = (margin, y + rowHeight + margin, 0)
            }
            placements.append((index, x, y))
            x += code.width + margin
            width = max(width, x)
            rowHeight = max(rowHeight, code.height)
        }
        let (pictureWidth, pictureHeight) = ((width + 1) & ~1, (y + rowHeight + margin + 1) & ~1)
        var gray = [UInt8](repeating: 255, count: pictureWidth * pictureHeight)
        var placed: [Placed] = []
        for (index, left, top) in placements {
            let code = drawn[index]
            var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
            for row in 0..<code.height {
                for column in 0..<code.width {
                    let value = code.pixels[row * code.width + column]
                    gray[(top + row) * pictureWidth + left + column] = value
                    if value < 128 { (minX, minY, maxX, maxY) = (min(minX, column), min(minY, row), max(maxX, column), max(maxY, row)) }
                }
            }
            placed.append(Placed(code: code.0, box: CGRect(x: left + minX, y: top + minY, width: maxX - minX + 1, height: maxY - minY + 1)))
        }
        let file = folder.appendingPathComponent("codes.pgm")
        try (Data("P5\n\(pictureWidth) \(pictureHeight)\n255\n".utf8) + Data(gray)).write(to: file)
        return (file, CGSize(width: pictureWidth, height: pictureHeight), placed)
    }

    /// Collects what the output finds: every object, by its text.
    final class Found: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var objects: [String: AVMetadataMachineReadableCodeObject] = [:]
        private(set) var deliveries = 0

        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                            from connection: AVCaptureConnection) {
            condition.withLock {
                deliveries += 1
                for case let code as AVMetadataMachineReadableCodeObject in metadataObjects { objects[code.stringValue ?? ""] = code }
                condition.broadcast()
            }
        }

        /// Waits until `count` codes have been found in all, or `frames` frames had codes, at
        /// most `seconds`; those found.
        func wait(for count: Int, orFrames frames: Int, seconds: Double) -> [String: AVMetadataMachineReadableCodeObject] {
            let deadline = Date().addingTimeInterval(seconds)
            return condition.withLock {
                while objects.count < count, deliveries < frames, condition.wait(until: deadline) {}
                return objects
            }
        }
    }

    /// A session showing `file` through the File Camera to a metadata output looking for every
    /// code type (within `region` when given), and what it found once `count` codes were (or,
    /// with a region, once codes were found in five frames), or 20 s passed.
    static func read(_ file: URL, expecting count: Int, region: CGRect? = nil) throws -> [String: AVMetadataMachineReadableCodeObject] {
        let camera = try AVCaptureDevice.fileCamera(playing: file)
        // Listed no longer once done (discovery would list it for the rest of the process).
        defer { CaptureDeviceRegistry.removeVirtualDevice(camera.backend) }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureMetadataOutput()
        #expect(output.availableMetadataObjectTypes.isEmpty, "nothing is available before the output has a camera")
        session.addOutput(output)
        #expect(Set(output.availableMetadataObjectTypes).isSuperset(of: codes.map(\.type)))
        #expect(output.metadataObjectTypes.isEmpty && output.rectOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        // Codes only: faces would slow every frame read (dlib is unoptimized in a debug build).
        output.metadataObjectTypes = output.availableMetadataObjectTypes.filter { $0 != .face }
        if let region { output.rectOfInterest = region }
        let found = Found()
        output.setMetadataObjectsDelegate(found, queue: DispatchQueue(label: "codes"))
        session.startRunning()
        defer { session.stopRunning() }
        return found.wait(for: count, orFrames: region == nil ? .max : 5, seconds: 20)
    }

    @Test(arguments: [(1, 0), (2, 0), (2, 90), (2, 180), (2, 270)])
    func everyCodeIsReadWithItsTextTypeAndCorners(scale: Int, rotation: Int) throws {
        let together = Self.codes.filter { !Self.singleCodes.contains($0.type) }
        let alone = Self.codes.filter { Self.singleCodes.contains($0.type) }
        for group in [together] + alone.map { [$0] } {
            try Self.check(try Self.picture(of: group, scale: scale, rotation: rotation))
        }
    }

    /// Shows a picture of codes to a metadata output: each is read with its text, its type and
    /// its corners.
    static func check(_ picture: (URL, CGSize, [Placed])) throws {
        let (file, size, placed) = picture
        let found = try read(file, expecting: placed.count)
        #expect(found.count == placed.count, "read: \(found.keys.sorted())")
        for code in placed {
            let object = try #require(found[code.code.text], "\(code.code.type.rawValue) '\(code.code.text)' was not read")
            #expect(object.type == code.code.type)
            #expect(object.time.isNumeric && object.duration.isNumeric)
            // The corners in pixels, against the drawn box's: each within 3 px of one of them,
            // and (the code's four corners, turned with it) all four covered.
            let corners = object.corners.map { CGPoint(x: $0.x * size.width, y: $0.y * size.height) }
            let box = [CGPoint(x: code.box.minX, y: code.box.minY), CGPoint(x: code.box.maxX, y: code.box.minY),
                       CGPoint(x: code.box.maxX, y: code.box.maxY), CGPoint(x: code.box.minX, y: code.box.maxY)]
            func near(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3 }
            #expect(corners.count == 4 && corners.allSatisfy { corner in box.contains { near($0, corner) } }
                        && box.allSatisfy { corner in corners.contains { near($0, corner) } },
                    "\(code.code.type.rawValue) at \(code.box): corners \(corners)")
            let bounds = CGRect(x: object.bounds.minX * size.width, y: object.bounds.minY * size.height,
                                width: object.bounds.width * size.width, height: object.bounds.height * size.height)
            #expect(abs(bounds.minX - code.box.minX) <= 3 && abs(bounds.maxY - code.box.maxY) <= 3, "bounds \(bounds) of \(code.box)")
        }
    }

    /// A rectangle of interest around one code: only that one is reported.
    @Test func codesOutsideTheRectOfInterestAreNotReported() throws {
        let (picture, size, placed) = try Self.picture(of: Self.codes.filter { !Self.singleCodes.contains($0.type) }, scale: 2, rotation: 0)
        // A camera of its own (a copy of the file): the other test plays the picture too.
        let file = picture.deletingLastPathComponent().appendingPathComponent("region.pgm")
        if !FileManager.default.fileExists(atPath: file.path) { try FileManager.default.copyItem(at: picture, to: file) }
        let chosen = try #require(placed.first { $0.code.type == .code128 })
        let region = CGRect(x: (chosen.box.minX - 10) / size.width, y: (chosen.box.minY - 10) / size.height,
                            width: (chosen.box.width + 20) / size.width, height: (chosen.box.height + 20) / size.height)
        let found = try Self.read(file, expecting: placed.count, region: region)
        #expect(Set(found.keys) == [chosen.code.text], "read: \(found.keys.sorted())")
    }

    /// The File Camera plays a clip as ffmpeg decodes it: every frame's luma equals ffmpeg's
    /// decode of the clip's frame (in order, looping at the end), at the clip's rate on the
    /// host clock (consecutive frames exactly 1/25 s apart).
    @Test func theFileCameraPlaysAClipAsFFmpegDecodesIt() throws {
        let clip = try Fixtures.make("file-camera-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1",
                                                             "-c:v", "libx264", "-bf", "2", "-pix_fmt", "yuv420p"])
        // ffmpeg's decode as it is (4:2:0, video range): each frame's luma plane.
        let decoded = [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-i", clip.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
        let frameSize = 320 * 240
        try #require(decoded.count == 25 * frameSize * 3 / 2)
        let lumas = (0..<25).map { Array(decoded[$0 * frameSize * 3 / 2..<$0 * frameSize * 3 / 2 + frameSize]) }
        let camera = try AVCaptureDevice.fileCamera(playing: clip)
        defer { CaptureDeviceRegistry.removeVirtualDevice(camera.backend) }
        #expect(try AVCaptureDevice.fileCamera(playing: clip) === camera, "one device a file")
        #expect(AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified)
            .devices.contains { $0 === camera })
        #expect(camera.formats.allSatisfy { CMVideoFormatDescriptionGetDimensions($0.formatDescription).width == 320 })
        #expect(camera.activeFormat.videoSupportedFrameRateRanges.first?.maxFrameRate == 25)
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        output.alwaysDiscardsLateVideoFrames = false
        let frames = LumaFrames(limit: 40)
        output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "file camera frames"))
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        let got = frames.wait(seconds: 10)
        try #require(got.count == 40, "\(got.count) frames")
        for (index, frame) in got.enumerated() {
            // (Compared as a whole: a failure names the frame shown instead, not 76,800 bytes.)
            let shown = lumas.firstIndex(of: frame.luma)
            #expect(shown == index % 25, "frame \(index) shows the clip's frame \(shown.map(String.init) ?? "none"), not \(index % 25)")
            if index > 0 { #expect(frame.time - got[index - 1].time == CMTime(value: 1, timescale: 25)) }
        }
        #expect(frames.dropped == 0)
    }

    /// A file that is no movie is refused with Apple's error.
    @Test func aFileThatIsNoMovieIsRefused() throws {
        let text = Fixtures.folder.appendingPathComponent("not-a-movie.mp4")
        try Data("not a movie".utf8).write(to: text)
        #expect { try AVCaptureDevice.fileCamera(playing: text) } throws: { ($0 as? AVError)?.code == .fileFormatNotRecognized }
    }
}

/// The luma planes and times of the first frames a video data output delivers.
final class LumaFrames: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [(time: CMTime, luma: [UInt8])] = []
    private(set) var dropped = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let picture = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        let width = CVPixelBufferGetWidthOfPlane(picture, 0), height = CVPixelBufferGetHeightOfPlane(picture, 0)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(picture, 0)
        let base = CVPixelBufferGetBaseAddressOfPlane(picture, 0)!.assumingMemoryBound(to: UInt8.self)
        let luma = (0..<height).flatMap { Array(UnsafeBufferPointer(start: base + $0 * stride, count: width)) }
        condition.withLock {
            guard frames.count < limit else { return }
            frames.append((CMSampleBufferGetPresentationTimeStamp(sampleBuffer), luma))
            condition.broadcast()
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        condition.withLock { if frames.count < limit { dropped += 1 } }
    }

    /// Waits for `limit` frames, at most `seconds`; those delivered.
    func wait(seconds: Double) -> [(time: CMTime, luma: [UInt8])] {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while frames.count < limit, condition.wait(until: deadline) {}
            return frames
        }
    }
}
