import CaptureDevices
import Foundation

/// A screenshot of the Test Pattern Camera's picture (a PNG of exactly the picture, at its own
/// size), read as ffmpeg decodes it: the frame index from the `FrameIndexBarcode`, and the host
/// time the frame was drawn for from the `MovingSquare`.
public struct PatternScreenshot {
    /// The camera's frame index, nil when the barcode does not read.
    public let index: Int?
    /// The host time of the frame shown, in seconds modulo 2; nil for a flash frame (no square).
    public let phase: Double?

    /// Reads the PNG at `url`, a `width`×`height` picture.
    public init(_ url: URL, width: Int, height: Int) throws {
        let bgra = try Fixtures.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "bgra", "-"])
        guard bgra.count == width * height * 4 else {
            throw FixtureError(message: "the screenshot is not \(width)x\(height): \(bgra.count) bytes")
        }
        (index, phase) = bgra.withUnsafeBytes {
            (FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4),
             MovingSquare.phase(bgra: $0, width: width, height: height, bytesPerRow: width * 4))
        }
    }

    /// How long before host time `now` (seconds on `CLOCK_MONOTONIC`) the shown frame was
    /// drawn for, between -1 and 1 s (negative: drawn for a time after `now`).
    public func age(at now: Double) -> Double? {
        phase.map { phase in
            let age = (now - phase).truncatingRemainder(dividingBy: 2)
            return age > 1 ? age - 2 : age <= -1 ? age + 2 : age
        }
    }
}
