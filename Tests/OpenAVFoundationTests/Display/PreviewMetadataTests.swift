import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVCaptureVideoPreviewLayer.transformedMetadataObject(for:)`: a QR code that zint drew, shown
/// by a File Camera in a preview window on Xvfb, turned a quarter and mirrored by the layer's
/// connection; the code's transformed corners and bounds are where the screenshot shows its dark
/// modules (within 3 px).
extension DisplayLayerTests {
    @Test func aCodesTransformedCornersAreWhereTheWindowShowsIt() throws {
        let server = try Self.server.get()
        let qr = try #require(MetadataOutputTests.codes.first { $0.type == .qr })
        let (picture, _, _) = try MetadataOutputTests.picture(of: [qr], scale: 4, rotation: 0)
        let file = picture.deletingLastPathComponent().appendingPathComponent("preview.pgm")
        if !FileManager.default.fileExists(atPath: file.path) { try FileManager.default.copyItem(at: picture, to: file) }
        let camera = try AVCaptureDevice.fileCamera(playing: file)
        defer { CaptureDeviceRegistry.removeVirtualDevice(camera.backend) }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureMetadataOutput()
        session.addOutput(output)
        output.metadataObjectTypes = [.qr]
        let found = MetadataOutputTests.Found()
        output.setMetadataObjectsDelegate(found, queue: DispatchQueue(label: "preview codes"))
        let layer = AVCaptureVideoPreviewLayer(session: session)
        // Filling the window: every dark pixel on screen is the code's.
        layer.videoGravity = .resize
        let connection = try #require(layer.connection)
        connection.videoRotationAngle = 90
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        let window = try AVDisplayWindow(layer: layer, title: "preview codes", size: CGSize(width: 640, height: 480), origin: .zero)
        defer { window.close() }
        session.startRunning()
        defer { session.stopRunning() }
        let code = try #require(found.wait(for: 1, orFrames: .max, seconds: 10)[qr.text])
        let shown = try #require(layer.transformedMetadataObject(for: code) as? AVMetadataMachineReadableCodeObject)
        #expect(shown.stringValue == qr.text && shown.type == .qr && shown.time == code.time)

        // The dark pixels' box on screen, once the picture is drawn.
        func darkBox(_ bgra: [UInt8]) -> CGRect? {
            var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
            for y in 0..<480 {
                for x in 0..<640 where bgra[(y * 640 + x) * 4 + 1] < 128 {
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
            return maxX < 0 ? nil : CGRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        }
        let deadline = Date().addingTimeInterval(10)
        var box = darkBox(try Self.grab(server, width: 640, height: 480, format: "bgra"))
        while (box == nil || box!.width > 600) && Date() < deadline { box = darkBox(try Self.grab(server, width: 640, height: 480, format: "bgra")) }
        let drawn = try #require(box)
        let corners = [CGPoint(x: drawn.minX, y: drawn.minY), CGPoint(x: drawn.maxX, y: drawn.minY),
                       CGPoint(x: drawn.maxX, y: drawn.maxY), CGPoint(x: drawn.minX, y: drawn.maxY)]
        func near(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3 }
        #expect(shown.corners.count == 4 && shown.corners.allSatisfy { corner in corners.contains { near($0, corner) } }
                    && corners.allSatisfy { corner in shown.corners.contains { near($0, corner) } },
                "on screen at \(drawn); transformed corners \(shown.corners)")
        #expect(abs(shown.bounds.minX - drawn.minX) <= 3 && abs(shown.bounds.maxY - drawn.maxY) <= 3
                    && abs(shown.bounds.width - drawn.width) <= 4, "bounds \(shown.bounds), on screen \(drawn)")
        // Turned a quarter clockwise and mirrored, the picture is transposed: the code's top right
        // (as it reads) is at the bottom left on screen, its top left stays.
        #expect(near(shown.corners[1], corners[3]) && near(shown.corners[0], corners[0]), "\(shown.corners)")

        // An object of another input's frames is not this layer's to transform.
        let other = AVMetadataMachineReadableCodeObject(type: .qr, time: code.time, duration: code.duration, corners: code.corners,
                                                        stringValue: code.stringValue,
                                                        input: try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
        #expect(layer.transformedMetadataObject(for: other) == nil)
    }
}
