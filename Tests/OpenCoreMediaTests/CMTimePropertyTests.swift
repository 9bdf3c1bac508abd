import BigInt
import PropertyBased
import Testing
import OpenCoreMedia

/// CMTime arithmetic checked against exact rational arithmetic on arbitrary-precision integers.
/// The oracle knows nothing of the implementation: it computes the exact result and states what
/// Apple's documentation allows the CMTime result to be.
@Suite(.timeLimit(.minutes(10))) struct CMTimePropertyTests {
    static let maxTimescale = BigInt(kCMTimeMaxTimescale)
    static let int64Range = BigInt(Int64.min)...BigInt(Int64.max)

    /// Values that mix small numbers (exact paths) with huge ones (overflow paths).
    static let values = Gen.oneOf(Gen.int64(in: -10_000...10_000), Gen.int64(in: -(1 << 40)...(1 << 40)), Gen.int64())
    /// Timescales from the common (600, 90000) to the largest.
    static let timescales = Gen.oneOf(Gen.int32(in: 1...1000), Gen.int32(in: 1...100_000), Gen.int32(in: 1...Int32.max))

    /// `numerator / denominator` rounded as `method` says, computed independently with BigInt.
    static func round(_ numerator: BigInt, _ denominator: BigInt, _ method: CMTimeRoundingMethod) -> BigInt {
        precondition(denominator > 0)
        let floor = numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
        let ceiling = floor * denominator == numerator ? floor : floor + 1
        let towardZero = numerator >= 0 ? floor : ceiling
        let awayFromZero = numerator >= 0 ? ceiling : floor
        switch method {
        case .roundTowardZero: return towardZero
        case .roundAwayFromZero: return awayFromZero
        case .roundTowardPositiveInfinity: return ceiling
        case .roundTowardNegativeInfinity: return floor
        case .roundHalfAwayFromZero:
            let twiceRemainder = (numerator - towardZero * denominator).magnitude * 2
            return twiceRemainder >= denominator.magnitude ? awayFromZero : towardZero
        case .quickTime:
            preconditionFailure("the oracle resolves quickTime itself")
        }
    }

    /// Checks `result` against the exact value `numerator / denominator` seconds: exact on
    /// `exactTimescale` when that is possible, otherwise rounded to within half a unit of its
    /// own timescale (or infinite when even timescale 1 overflows).
    static func check(_ result: CMTime, exact numerator: BigInt, over denominator: BigInt,
                      exactTimescale: BigInt, sourceLocation: SourceLocation = #_sourceLocation) {
        let exactValue = numerator * exactTimescale
        if exactTimescale <= maxTimescale, exactValue % denominator == 0, int64Range.contains(exactValue / denominator) {
            #expect(result.isNumeric && !result.hasBeenRounded, sourceLocation: sourceLocation)
            #expect(BigInt(result.timescale) == exactTimescale, sourceLocation: sourceLocation)
            #expect(BigInt(result.value) == exactValue / denominator, sourceLocation: sourceLocation)
            return
        }
        if result.isPositiveInfinity || result.isNegativeInfinity {
            // Only when the value does not fit even in whole seconds.
            #expect(!int64Range.contains(round(numerator, denominator, .roundHalfAwayFromZero)), sourceLocation: sourceLocation)
            #expect(result.isPositiveInfinity == (numerator > 0), sourceLocation: sourceLocation)
            return
        }
        #expect(result.isNumeric && result.timescale > 0, sourceLocation: sourceLocation)
        #expect(BigInt(result.timescale) <= min(exactTimescale, maxTimescale), sourceLocation: sourceLocation)
        // |value/timescale - n/d| <= 1/(2 timescale)  <=>  2|value*d - n*timescale| <= d
        let error = (BigInt(result.value) * denominator - numerator * BigInt(result.timescale)).magnitude
        #expect(error * 2 <= denominator.magnitude, sourceLocation: sourceLocation)
        if error != 0 { #expect(result.hasBeenRounded, sourceLocation: sourceLocation) }
    }

    static func lcm(_ a: BigInt, _ b: BigInt) -> BigInt { a / a.greatestCommonDivisor(with: b) * b }

    @Test func additionMatchesExactRationals() async {
        await propertyCheck(count: 2000, input: Self.values, Self.timescales, Self.values, Self.timescales) { va, ta, vb, tb in
            let a = CMTime(value: va, timescale: ta), b = CMTime(value: vb, timescale: tb)
            let (A, B) = (BigInt(ta), BigInt(tb))
            Self.check(a + b, exact: BigInt(va) * B + BigInt(vb) * A, over: A * B, exactTimescale: Self.lcm(A, B))
            Self.check(CMTimeSubtract(a, b), exact: BigInt(va) * B - BigInt(vb) * A, over: A * B, exactTimescale: Self.lcm(A, B))
        }
    }

    @Test func additionIsCommutative() async {
        await propertyCheck(count: 1000, input: Self.values, Self.timescales, Self.values, Self.timescales) { va, ta, vb, tb in
            let a = CMTime(value: va, timescale: ta), b = CMTime(value: vb, timescale: tb)
            let (ab, ba) = (a + b, b + a)
            #expect(ab.value == ba.value && ab.timescale == ba.timescale && ab.flags == ba.flags)
        }
    }

    @Test func multiplicationMatchesExactRationals() async {
        await propertyCheck(count: 2000, input: Self.values, Self.timescales, Gen.int32()) { v, t, m in
            Self.check(CMTimeMultiply(CMTime(value: v, timescale: t), multiplier: m),
                       exact: BigInt(v) * BigInt(m), over: BigInt(t), exactTimescale: BigInt(t))
        }
    }

    @Test func multiplicationByRatioIsExactWhenItFits() async {
        await propertyCheck(count: 2000, input: Self.values, Self.timescales, Gen.int32(), Gen.int32()) { v, t, m, d in
            let result = CMTimeMultiplyByRatio(CMTime(value: v, timescale: t), multiplier: m, divisor: d)
            guard d != 0 else {
                #expect(!result.isValid)
                return
            }
            var (numerator, denominator) = (BigInt(v) * BigInt(m), BigInt(t) * BigInt(d))
            if denominator < 0 { (numerator, denominator) = (-numerator, -denominator) }
            let reduced = denominator / numerator.greatestCommonDivisor(with: denominator)
            // The time's own timescale when it holds the result, else the least that does.
            let preferred = Self.lcm(reduced, BigInt(t))
            Self.check(result, exact: numerator, over: denominator,
                       exactTimescale: preferred <= Self.maxTimescale ? preferred : reduced)
        }
    }

    @Test func comparisonMatchesExactRationals() async {
        await propertyCheck(count: 2000, input: Self.values, Self.timescales, Self.values, Self.timescales) { va, ta, vb, tb in
            let difference = BigInt(va) * BigInt(tb) - BigInt(vb) * BigInt(ta)
            let expected: Int32 = difference < 0 ? -1 : (difference == 0 ? 0 : 1)
            let a = CMTime(value: va, timescale: ta), b = CMTime(value: vb, timescale: tb)
            #expect(CMTimeCompare(a, b) == expected)
            #expect((a == b) == (expected == 0))
            #expect((a < b) == (expected < 0))
        }
    }

    @Test func equalTimesHashAlike() async {
        await propertyCheck(count: 1000, input: Gen.int64(in: -(1 << 31)...(1 << 31)), Gen.int32(in: 1...(1 << 15)), Gen.int32(in: 1...(1 << 15))) { v, t, k in
            let a = CMTime(value: v, timescale: t)
            let b = CMTime(value: v * Int64(k), timescale: t * k)
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
    }

    @Test func convertScaleRoundsAsEachMethodSays() async {
        let methods = Gen.element(of: CMTimeRoundingMethod.allCases).compactMap { $0 }
        await propertyCheck(count: 3000, input: Self.values, Self.timescales, Self.timescales, methods) { v, t, newScale, method in
            let result = CMTime(value: v, timescale: t).convertScale(newScale, method: method)
            let numerator = BigInt(v) * BigInt(newScale), denominator = BigInt(t)
            var expected: BigInt
            if method == .quickTime {
                expected = Self.round(numerator, denominator, newScale < t ? .roundTowardZero : .roundAwayFromZero)
                if expected == 0 && v < 0 { expected = -1 }
            } else {
                expected = Self.round(numerator, denominator, method)
            }
            if Self.int64Range.contains(expected) {
                #expect(result.timescale == newScale && BigInt(result.value) == expected)
                #expect(result.hasBeenRounded == (numerator % denominator != 0))
            } else {
                #expect(result.isPositiveInfinity || result.isNegativeInfinity)
            }
        }
    }

    @Test func secondsRoundTripThroughMakeWithSeconds() async {
        await propertyCheck(count: 2000, input: Gen.int64(in: -(1 << 40)...(1 << 40)), Self.timescales) { v, t in
            let seconds = Double(v) / Double(t)
            let time = CMTimeMakeWithSeconds(seconds, preferredTimescale: t)
            #expect(time.timescale == t && time.value == v)
        }
    }

    @Test func orderIsTotalAcrossNumericAndSpecialTimes() async {
        let specials: [CMTime] = [.invalid, .indefinite, .positiveInfinity, .negativeInfinity]
        let time = zip(Self.values, Self.timescales, Gen.int64(in: 0...2), Gen.int(in: 0...5)).map { v, t, epoch, pick in
            pick < 4 ? specials[pick] : CMTimeMakeWithEpoch(value: v, timescale: t, epoch: epoch)
        }
        await propertyCheck(count: 2000, input: time, time, time) { a, b, c in
            // Exactly one of <, ==, > holds, and it is antisymmetric and transitive.
            #expect([a < b, a == b, b < a].filter { $0 }.count == 1)
            #expect(CMTimeCompare(a, b) == -CMTimeCompare(b, a))
            if a <= b && b <= c { #expect(a <= c) }
        }
    }
}
