import Foundation

/// A camera sensor's white balance, modelled: from the colour temperature and tint of a light
/// to the RGB gains that make it neutral, and back.
///
/// Lights are points of the CIE 1960 (u, v) diagram: the Planckian locus (Kim et al.'s cubic
/// approximation, 1667–25000 K) for tint 0, moved across the locus by 0.0002 per tint unit
/// (positive tint towards magenta, as `AVCaptureDevice.WhiteBalanceTemperatureAndTintValues`'s
/// -150…150). The sensor sees a light as linear sRGB, desaturated by 40% (a real sensor's
/// broad channels), so that every light from 1667 K up gives positive gains; gains are scaled so
/// that the smallest is 1. The inverse finds the temperature whose locus point is nearest
/// (golden-section search in mireds) and the tint from the distance, so the two directions agree.
package enum WhiteBalanceModel {
    /// The Duv of one tint unit.
    static let duvPerTint = 0.0002
    /// How much of a light's luminance every channel sees, besides its own colour.
    static let desaturation = 0.4
    /// The temperatures the model covers, in kelvin.
    package static let temperatureRange: ClosedRange<Double> = 1667...25000

    /// The gains that make a light neutral.
    package static func gains(temperature: Double, tint: Double) -> CaptureWhiteBalanceGains {
        let (u, v) = uv(temperature: temperature, tint: tint)
        let (x, y) = (3 * u / (2 * u - 8 * v + 4), 2 * v / (2 * u - 8 * v + 4))
        let (bigX, bigZ) = (x / y, (1 - x - y) / y)
        let linear = [3.2406 * bigX - 1.5372 - 0.4986 * bigZ,
                      -0.9689 * bigX + 1.8758 + 0.0415 * bigZ,
                      0.0557 * bigX - 0.2040 + 1.0570 * bigZ]
        let sensor = linear.map { (1 - desaturation) * $0 + desaturation }
        let gains = sensor.map { 1 / max($0, 1e-6) }
        let smallest = gains.min()!
        return CaptureWhiteBalanceGains(red: Float(gains[0] / smallest), green: Float(gains[1] / smallest),
                                        blue: Float(gains[2] / smallest))
    }

    /// The temperature and tint of the light that `gains` make neutral.
    package static func temperatureAndTint(for gains: CaptureWhiteBalanceGains) -> (temperature: Double, tint: Double) {
        let sensor = [1 / Double(gains.red), 1 / Double(gains.green), 1 / Double(gains.blue)]
        // The sensor's luminance weights sum to 1, so they give the light's scale.
        let scale = 0.2126 * sensor[0] + 0.7152 * sensor[1] + 0.0722 * sensor[2]
        let linear = sensor.map { ($0 / scale - desaturation) / (1 - desaturation) }
        let bigX = 0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]
        let bigY = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        let bigZ = 0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]
        let denominator = bigX + 15 * bigY + 3 * bigZ
        let point = (4 * bigX / denominator, 6 * bigY / denominator)
        // Nearest locus point, searched in mireds (where the locus is evenly spread).
        var (low, high) = (1e6 / temperatureRange.upperBound, 1e6 / temperatureRange.lowerBound)
        let ratio = (sqrt(5) - 1) / 2
        func distance(_ mired: Double) -> Double {
            let (u, v) = uv(temperature: 1e6 / mired, tint: 0)
            return hypot(point.0 - u, point.1 - v)
        }
        for _ in 0..<80 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            if distance(a) < distance(b) { high = b } else { low = a }
        }
        let temperature = 1e6 / ((low + high) / 2)
        let (u, v) = uv(temperature: temperature, tint: 0)
        let normal = greenwardNormal(temperature: temperature)
        let duv = (point.0 - u) * normal.0 + (point.1 - v) * normal.1
        return (temperature, -duv / duvPerTint)
    }

    /// A light's (u, v): the locus point of its temperature, moved by its tint.
    static func uv(temperature: Double, tint: Double) -> (Double, Double) {
        let (u, v) = locus(temperature)
        let normal = greenwardNormal(temperature: temperature)
        let duv = -tint * duvPerTint
        return (u + duv * normal.0, v + duv * normal.1)
    }

    /// The unit normal of the locus at a temperature, on the green side (larger v).
    private static func greenwardNormal(temperature: Double) -> (Double, Double) {
        let step = temperature * 1e-4
        let (u0, v0) = locus(temperature - step), (u1, v1) = locus(temperature + step)
        let (du, dv) = (u1 - u0, v1 - v0)
        let length = hypot(du, dv)
        var normal = (-dv / length, du / length)
        if normal.1 < 0 { normal = (-normal.0, -normal.1) }
        return normal
    }

    /// The Planckian locus in (u, v), after Kim et al.
    private static func locus(_ kelvin: Double) -> (Double, Double) {
        let t = min(max(kelvin, temperatureRange.lowerBound), temperatureRange.upperBound)
        let (t1, t2, t3) = (1e3 / t, 1e6 / (t * t), 1e9 / (t * t * t))
        let x = t <= 4000
            ? -0.2661239 * t3 - 0.2343589 * t2 + 0.8776956 * t1 + 0.179910
            : -3.0258469 * t3 + 2.1070379 * t2 + 0.2226347 * t1 + 0.240390
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        let denominator = -2 * x + 12 * y + 3
        return (4 * x / denominator, 6 * y / denominator)
    }
}
