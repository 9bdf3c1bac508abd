import Foundation
import OpenCoreMedia

/// The Test Pattern Camera's moving square: a dark square (RGB 16,16,16), a quarter of the
/// picture's height, vertically centred, sweeping left to right once every 2 seconds of host
/// time. Its position tells the host time a frame was drawn for, modulo 2 s, to within 2 pixels
/// (3.6 ms at 1280 wide): tests read it from screenshots to time a picture's way to the glass.
package enum MovingSquare {
    /// The time of one sweep, in nanoseconds.
    package static let period: Int64 = 2_000_000_000
    /// The square's colour, in each of red, green and blue.
    package static let level: UInt8 = 16

    /// The side of the square in a picture `height` pixels high.
    package static func side(forHeight height: Int) -> Int {
        (height / 4) & ~1
    }

    /// The square's top-left corner at host time `time`, in a `width`×`height` picture.
    package static func origin(at time: CMTime, width: Int, height: Int) -> (x: Int, y: Int) {
        let side = side(forHeight: height)
        let nanoseconds = Int64(CMTimeConvertScale(time, timescale: 1_000_000_000, method: .roundHalfAwayFromZero).value)
        let phase = Double(nanoseconds % period) / Double(period)
        return (Int(phase * Double(width - side)) & ~1, (height / 2 - side / 2) & ~1)
    }

    /// The host time the picture was drawn for, in seconds modulo 2, from its middle row of
    /// BGRA pixels; nil when no square shows (a flash frame). The square is the leftmost run of
    /// pixels dark in every channel (no colour bar is) at least 80% of its side long.
    package static func phase(bgra bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> Double? {
        let side = side(forHeight: height)
        guard side >= 2, width > side, bytes.count >= (height / 2 + 1) * bytesPerRow else { return nil }
        let row = height / 2 * bytesPerRow
        func isDark(_ x: Int) -> Bool {
            max(bytes[row + x * 4], bytes[row + x * 4 + 1], bytes[row + x * 4 + 2]) < 60
        }
        var x = 0
        while x < width {
            guard isDark(x) else { x += 1; continue }
            var end = x
            while end < width && isDark(end) { end += 1 }
            if end - x >= side * 8 / 10 { return 2 * Double(x) / Double(width - side) }
            x = end
        }
        return nil
    }
}
