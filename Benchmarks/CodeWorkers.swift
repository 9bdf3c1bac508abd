import Foundation
import MediaEngine
import OpenAVFoundation

extension Workers {
    /// Reads the QR code in a raw NV12 frame `count` times with the metadata output's reader
    /// (zxing-cpp), from a '420v' pixel buffer holding it; prints how many codes it read.
    static func readCodes(frame: URL, width: Int, height: Int, count: Int) throws {
        let nv12 = try Data(contentsOf: frame)
        guard nv12.count == width * height * 3 / 2 else { throw Failure("\(frame.path) is not a \(width)x\(height) NV12 frame") }
        var made: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        guard let picture = made else { throw Failure("cannot make a \(width)x\(height) picture") }
        CVPixelBufferLockBaseAddress(picture, [])
        nv12.withUnsafeBytes { bytes in
            for (plane, rows, offset) in [(0, height, 0), (1, height / 2, width * height)] {
                let base = CVPixelBufferGetBaseAddressOfPlane(picture, plane)!
                let rowBytes = CVPixelBufferGetBytesPerRowOfPlane(picture, plane)
                for row in 0..<rows {
                    (base + row * rowBytes).copyMemory(from: bytes.baseAddress! + offset + row * width, byteCount: width)
                }
            }
        }
        CVPixelBufferUnlockBaseAddress(picture, [])
        let reader = CodeReader(formats: .qrCode)
        var codes = 0
        for _ in 0..<count { codes += try reader.read(picture).count }
        print("metrics: codes=\(codes)")
    }

    /// `openav scan --video CLIP --types qr` for `seconds`: the File Camera playing the clip
    /// into a metadata output; prints how many codes its delegate was given.
    static func scan(_ clip: URL, seconds: Double) throws {
        let camera = try AVCaptureDevice.fileCamera(playing: clip)
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let metadata = AVCaptureMetadataOutput()
        session.addOutput(metadata)
        metadata.metadataObjectTypes = [.qr]
        let counter = CodeCounter()
        metadata.setMetadataObjectsDelegate(counter, queue: DispatchQueue(label: "openav-bench.codes"))
        session.commitConfiguration()
        session.startRunning()
        Thread.sleep(forTimeInterval: seconds)
        session.stopRunning()
        print("metrics: codes=\(counter.count)")
    }
}

/// Counts the codes a metadata output reports.
final class CodeCounter: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var counted = 0

    var count: Int { lock.withLock { counted } }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                        from connection: AVCaptureConnection) {
        lock.withLock { counted += metadataObjects.count }
    }
}
