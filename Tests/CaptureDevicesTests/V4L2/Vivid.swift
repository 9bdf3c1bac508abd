import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

/// The tests that need a real V4L2 camera: the kernel's `vivid` driver, inside the VM that
/// `scripts/vivid-vm` boots (`VividVMTests` does so from `swift test`). One at a time: they
/// share the driver. Outside the VM they are skipped, and `VividVMTests` runs them in the VM.
@Suite(.serialized, .enabled(if: Vivid.isInsideVM, "runs inside scripts/vivid-vm (VividVMTests boots it)"), .timeLimit(.minutes(20)))
enum VividGuestTests {}

/// What the guest tests share: the vivid cameras, the `v4l2-ctl` oracle, captures.
///
/// The VM loads two vivid instances: the first (`/dev/video0`, bus `platform:vivid-000`) with
/// vivid's usual nodes (capture, output, VBI, radio, SDR, touch, metadata), the second
/// (`platform:vivid-001`) a lone capture node, unplugged by the disconnect test. After them, one
/// v4l2loopback node ("OpenAV H.264 loopback", `exclusive_caps`: a capture node only while a
/// program feeds it), the H.264 camera of `H264Tests`.
enum Vivid {
    /// Whether this process runs inside `scripts/vivid-vm`.
    static let isInsideVM = ProcessInfo.processInfo.environment["OPENAV_VIVID_VM"] == "1"
    /// The first instance's capture node.
    static let mainPath = "/dev/video0"

    /// The camera discovery lists for a node.
    static func camera(at path: String = mainPath) throws -> V4L2Camera {
        try #require(V4L2Discovery.cameras().first { $0.path == path }, "discovery lists no camera at \(path)")
    }

    /// `v4l2-ctl` with arguments, its standard output as text.
    static func v4l2ctl(_ arguments: String...) throws -> String {
        String(decoding: try run("v4l2-ctl", arguments), as: UTF8.self)
    }

    /// The format of a camera captured from a V4L2 pixel format at a size.
    static func format(_ camera: V4L2Camera, _ fourCC: String, _ width: Int, _ height: Int) throws -> CaptureFormat {
        .video(try #require(camera.videoFormats.first {
            $0.v4l2PixelFormat == V4L2PixelFormat.fourCC(fourCC) && $0.width == width && $0.height == height
        }, "\(camera.path) offers no \(fourCC) \(width)x\(height)"))
    }

    /// Sets controls by name for the duration of `body`, then back to their values before.
    static func withControls<T>(_ camera: V4L2Camera, _ values: [String: Int64], _ body: () throws -> T) throws -> T {
        var saved: [(String, Int64)] = []
        defer { for (name, value) in saved.reversed() { try? camera.setValue(value, ofControlNamed: name) } }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            saved.append((name, try camera.value(ofControlNamed: name)))
            try camera.setValue(value, ofControlNamed: name)
        }
        return try body()
    }

    /// Captures `count` frames and stops; the frames as `make` recorded them, and the errors.
    static func capture<Record: Sendable>(_ camera: V4L2Camera, _ format: CaptureFormat, fps: Int32, count: Int,
                                          timeout: Double = 20,
                                          _ make: @escaping @Sendable (CaptureSample) -> Record) throws -> [Record] {
        let collector = Collector(make)
        try camera.start(format: format, frameDuration: CMTime(value: 1, timescale: fps), handler: collector.handler)
        let records = collector.wait(for: count, timeout: timeout)
        camera.stop()
        #expect(collector.errors.isEmpty, "capture failed: \(collector.errors)")
        try #require(records.count >= count, "\(records.count) of \(count) frames in \(timeout) s")
        return Array(records.prefix(count))
    }
}

/// A captured frame's timing (as the test pattern camera's tests record it) and its pixels,
/// packed (rows without padding): planes 0 and 1 of a `'420v'` buffer, or the one plane of a
/// `'BGRA'` buffer.
@dynamicMemberLookup
struct VividFrame: Sendable {
    var record: FrameRecord
    var planes: [[UInt8]]

    init(_ sample: CaptureSample, keepPixels: Bool = true) {
        record = FrameRecord(sample, readBarcode: false)
        planes = keepPixels ? Self.packedPlanes(sample.pixelBuffer!) : []
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<FrameRecord, Value>) -> Value { record[keyPath: keyPath] }

    /// Every plane's bytes without row padding.
    static func packedPlanes(_ buffer: CVPixelBuffer) -> [[UInt8]] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        if CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA {
            return [PixelComparison.packed(buffer, bytesPerPixel: 4)]
        }
        return (0..<CVPixelBufferGetPlaneCount(buffer)).map { plane in
            let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!.assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            // '420v': luma one byte per pixel, chroma one Cb,Cr pair per two pixels.
            let rowBytes = plane == 0 ? CVPixelBufferGetWidth(buffer) : CVPixelBufferGetWidthOfPlane(buffer, plane) * 2
            return (0..<CVPixelBufferGetHeightOfPlane(buffer, plane)).flatMap {
                Array(UnsafeBufferPointer(start: base + $0 * stride, count: rowBytes))
            }
        }
    }

    /// The mean of the luma plane.
    var meanLuma: Double {
        Double(planes[0].reduce(0) { $0 + Int($1) }) / Double(max(1, planes[0].count))
    }

    /// One luma row.
    func lumaRow(_ y: Int) -> [UInt8] { Array(planes[0][y * record.width..<(y + 1) * record.width]) }

    /// One luma column.
    func lumaColumn(_ x: Int) -> [UInt8] { (0..<record.height).map { planes[0][$0 * record.width + x] } }
}
