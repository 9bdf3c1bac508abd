import CaptureDevices
import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// `AVCaptureMetadataOutput` finding faces in photographs that scikit-image ships (its wheel, from
/// PyPI), shown by the File Camera: the astronaut's face where a box drawn by hand puts it
/// (intersection over union at least 0.5), at its own size and scaled into a 1920x1080 frame; no
/// face in the pictures without one. Beside each photograph a QR code that zint drew: each frame
/// the output reads reports it, so the test knows which frames were read and found no face.
/// Apart from other heavy suites, one picture at a time: a debug build runs dlib's detector
/// unoptimized, a second or two of a core a frame.
@Suite(.serialized, HeavyLoad.Scope(), .timeLimit(.minutes(5))) struct MetadataFaceTests {
    /// The astronaut's face in `astronaut.png`, drawn by hand: hairline to chin, ear to ear.
    static let astronautFace = CGRect(x: 178, y: 70, width: 95, height: 112)

    /// `photo` scaled by `scale` and padded to `size` (its top left at `origin`), with a QR code
    /// in the top right corner, as a PNG.
    static func picture(_ photo: String, scale: Double = 1, origin: CGPoint = .zero, size: CGSize) throws -> URL {
        let folder = Fixtures.folder.appendingPathComponent("faces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let qr = folder.appendingPathComponent("qr.png")
        _ = try Fixtures.run("zint", ["-b", "58", "-d", "frame read", "--scale=3", "--quietzones", "-o", qr.path])
        let picture = folder.appendingPathComponent("picture.png")
        _ = try Fixtures.run("ffmpeg", [
            "-v", "error", "-i", try SamplePhotos.photo(photo).path, "-i", qr.path, "-filter_complex",
            "[0]scale=iw*\(scale):ih*\(scale),pad=\(Int(size.width)):\(Int(size.height)):\(Int(origin.x)):\(Int(origin.y)):white[p];"
                + "[p][1]overlay=W-w-10:10,format=rgb24",
            "-frames:v", "1", picture.path,
        ])
        return picture
    }

    /// What the output found in `picture` in the first `frames` frames it read (each shows the
    /// QR code): the faces of each frame.
    static func faces(in picture: URL, frames: Int) throws -> [[AVMetadataFaceObject]] {
        let camera = try AVCaptureDevice.fileCamera(playing: picture)
        defer { CaptureDeviceRegistry.removeVirtualDevice(camera.backend) }
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureMetadataOutput()
        session.addOutput(output)
        #expect(output.availableMetadataObjectTypes.contains(.face))
        output.metadataObjectTypes = [.face, .qr]
        let found = FramesRead()
        output.setMetadataObjectsDelegate(found, queue: DispatchQueue(label: "faces"))
        session.startRunning()
        defer { session.stopRunning() }
        // A debug build runs dlib unoptimized: seconds a 1080p frame on a busy machine.
        let read = found.wait(for: frames, seconds: 120)
        #expect(read.count >= frames, "\(read.count) frames read")
        return read
    }

    /// The faces of each frame in which the QR code was read.
    final class FramesRead: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
        private let condition = NSCondition()
        private var frames: [[AVMetadataFaceObject]] = []

        func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                            from connection: AVCaptureConnection) {
            guard metadataObjects.contains(where: { $0.type == .qr }) else { return }
            condition.withLock {
                frames.append(metadataObjects.compactMap { $0 as? AVMetadataFaceObject })
                condition.broadcast()
            }
        }

        func wait(for count: Int, seconds: Double) -> [[AVMetadataFaceObject]] {
            let deadline = Date().addingTimeInterval(seconds)
            return condition.withLock {
                while frames.count < count, condition.wait(until: deadline) {}
                return frames
            }
        }
    }

    static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let shared = a.intersection(b)
        guard !shared.isNull else { return 0 }
        return shared.width * shared.height / (a.width * a.height + b.width * b.height - shared.width * shared.height)
    }

    @Test(arguments: [(1.0, CGPoint.zero, CGSize(width: 800, height: 512)),
                      (1080.0 / 512, CGPoint(x: 420, y: 0), CGSize(width: 1920, height: 1080))])
    func theAstronautsFaceIsFoundWhereItIs(scale: Double, origin: CGPoint, size: CGSize) throws {
        let frames = try Self.faces(in: try Self.picture("astronaut.png", scale: scale, origin: origin, size: size), frames: 4)
        let expected = CGRect(x: origin.x + Self.astronautFace.minX * scale, y: origin.y + Self.astronautFace.minY * scale,
                              width: Self.astronautFace.width * scale, height: Self.astronautFace.height * scale)
        for faces in frames {
            #expect(faces.count == 1, "faces: \(faces.map(\.bounds))")
            guard let face = faces.first else { continue }
            let bounds = CGRect(x: face.bounds.minX * size.width, y: face.bounds.minY * size.height,
                                width: face.bounds.width * size.width, height: face.bounds.height * size.height)
            #expect(Self.overlap(bounds, expected) >= 0.5, "found at \(bounds), drawn at \(expected)")
            #expect(face.type == .face && !face.hasRollAngle && !face.hasYawAngle)
        }
        // One face that stays: one ID.
        #expect(Set(frames.flatMap { $0.map(\.faceID) }).count == 1)
    }

    @Test(arguments: ["chelsea.png", "coffee.png", "rocket.jpg", "coins.png", "horse.png"])
    func noFaceIsFoundWhereThereIsNone(photo: String) throws {
        let frames = try Self.faces(in: try Self.picture(photo, size: CGSize(width: 1000, height: 600)), frames: 4)
        #expect(frames.allSatisfy { $0.isEmpty }, "faces in \(photo): \(frames.flatMap { $0.map(\.bounds) })")
    }
}
