import CaptureDevices
import Foundation

/// A screenshot of the Test Pattern Camera's picture (a PNG of exactly the picture, at its own
/// size), read as ffmpeg decodes it: the frame index from the barcode, and the host time the
/// frame was drawn for, from the moving square.
///
/// The square (RGB 16,16,16, a quarter of the height, vertically centred) sweeps left to right
/// once every 2 s of host time: its left edge at `x = phase × (width − side)`, so its position
/// gives the frame's host time modulo 2 s to within 2 pixels (3.6 ms at 1280 wide). No colour
/// bar is that dark in every channel.
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
        index = bgra.withUnsafeBytes { FrameIndexBarcode.read(bgra: $0, width: width, height: height, bytesPerRow: width * 4) }
        let side = (height / 4) & ~1
        let row = height / 2
        let dark = (0..<width).map { x -> Bool in
            let pixel = (row * width + x) * 4
            return max(bgra[pixel], bgra[pixel + 1], bgra[pixel + 2]) < 60
        }
        // The leftmost run of dark pixels at least 80% of the square's side.
        var start: Int?
        var x = 0
        while x < width, start == nil {
            if dark[x] {
                let end = dark[x...].firstIndex(of: false) ?? width
                if end - x >= side * 8 / 10 { start = x }
                x = end
            } else {
                x += 1
            }
        }
        phase = start.map { 2 * Double($0) / Double(width - side) }
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
