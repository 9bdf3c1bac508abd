/// Exact rational arithmetic behind CMTime: every operation computes its exact result as a
/// fraction of 128-bit integers, then places it on a timescale the way Apple's CoreMedia
/// documents (rounding, halving the timescale on overflow, infinity when even timescale 1
/// overflows).
enum RationalTime {
    /// The largest timescale a result may get (`kCMTimeMaxTimescale`).
    static let maxTimescale: Int128 = 0x7fff_ffff

    /// `numerator / denominator` rounded to an integer by `method` (never `.quickTime`, which
    /// callers resolve first); `denominator` is positive. Returns the quotient and whether
    /// rounding happened.
    static func divide(_ numerator: Int128, by denominator: Int128, method: CMTimeRoundingMethod) -> (Int128, Bool) {
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        if remainder == 0 { return (quotient, false) }
        let awayFromZero: Int128 = numerator < 0 ? quotient - 1 : quotient + 1
        switch method {
        case .roundTowardZero, .quickTime:
            return (quotient, true)
        case .roundAwayFromZero:
            return (awayFromZero, true)
        case .roundHalfAwayFromZero:
            return (remainder.magnitude * 2 >= denominator.magnitude ? awayFromZero : quotient, true)
        case .roundTowardPositiveInfinity:
            return (numerator > 0 ? quotient + 1 : quotient, true)
        case .roundTowardNegativeInfinity:
            return (numerator < 0 ? quotient - 1 : quotient, true)
        }
    }

    /// Places the exact time `numerator / denominator` seconds on `timescale`, halving the
    /// timescale while the value overflows 64 bits; ±infinity when it overflows at timescale 1.
    static func time(
        _ numerator: Int128, over denominator: Int128, timescale: Int128,
        method: CMTimeRoundingMethod = .default, alreadyRounded: Bool, epoch: CMTimeEpoch
    ) -> CMTime {
        precondition(denominator > 0 && timescale > 0)
        var scale = timescale
        while true {
            let (value, rounded) = divide(numerator * scale, by: denominator, method: method)
            if let fitting = Int64(exactly: value) {
                var flags: CMTimeFlags = .valid
                if rounded || alreadyRounded { flags.insert(.hasBeenRounded) }
                return CMTime(value: fitting, timescale: Int32(scale), flags: flags, epoch: epoch)
            }
            if scale == 1 { return numerator < 0 ? .negativeInfinity : .positiveInfinity }
            scale /= 2
        }
    }

    /// The greatest common divisor of two non-negative numbers.
    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }

    /// The timescale a result with exact denominator `denominator` should get: the smallest
    /// timescale that holds it exactly (a multiple of `preferred` when that still fits), or
    /// `kCMTimeMaxTimescale` when no exact timescale fits.
    static func timescale(forDenominator denominator: Int128, preferring preferred: Int128) -> Int128 {
        let lcm = denominator / gcd(denominator, preferred) * preferred
        if lcm <= maxTimescale { return lcm }
        return denominator <= maxTimescale ? denominator : maxTimescale
    }
}
