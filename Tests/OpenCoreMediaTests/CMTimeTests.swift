import Foundation
import Testing
import OpenCoreMedia

/// CMTime behaviour pinned case by case against Apple's documentation (CMTime.h and the
/// programming guide). The property-based suite checks the arithmetic against exact rationals.
@Suite(.timeLimit(.minutes(10))) struct CMTimeTests {
    @Test func guideTimeExample() {
        // "Time and Media Representations", the guide's own example.
        let time1 = CMTimeMake(value: 200, timescale: 2)
        let time2 = CMTimeMake(value: 400, timescale: 4)
        #expect(CMTimeCompare(time1, time2) == 0)
        let float64Seconds = 200.0 / 3
        var time3 = CMTimeMakeWithSeconds(float64Seconds, preferredTimescale: 3)
        #expect(time3.value == 200 && time3.timescale == 3)
        time3 = CMTimeMultiply(time3, multiplier: 3)
        #expect(time3.value == 600 && time3.timescale == 3)
        time3 = CMTimeSubtract(time3, time1)
        #expect(time3.value == 600 && time3.timescale == 6)
        #expect(CMTIME_COMPARE_INLINE(time2, ==, time3))
        #expect(CMTimeCopyDescription(allocator: nil, time: time3) == "{600/6 = 100.000}")
    }

    @Test func issueExampleCompilesAndGivesApplesResult() {
        let t = CMTimeAdd(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 2))
        #expect(t.value == 5 && t.timescale == 6 && !t.hasBeenRounded)
        #expect(CMTimeRange(start: .zero, duration: CMTime(seconds: 3, preferredTimescale: 600)).containsTime(t))
    }

    @Test func constantsHaveApplesFields() {
        #expect(CMTime.zero.value == 0 && CMTime.zero.timescale == 1 && CMTime.zero.flags == .valid)
        #expect(CMTime.invalid.flags.rawValue == 0 && CMTime().flags.rawValue == 0)
        #expect(CMTime.positiveInfinity.flags == [.valid, .positiveInfinity])
        #expect(CMTime.negativeInfinity.flags == [.valid, .negativeInfinity])
        #expect(CMTime.indefinite.flags == [.valid, .indefinite])
        #expect(CMTimeFlags.impliedValueFlagsMask.rawValue == 28)
        #expect(kCMTimeMaxTimescale == 0x7fff_ffff)
        #expect(CMTimeRoundingMethod.default == .roundHalfAwayFromZero)
        #expect(CMTimeRoundingMethod.quickTime.rawValue == 4)
        #expect(CMTimeRoundingMethod.roundTowardPositiveInfinity.rawValue == 5)
    }

    @Test func predicates() {
        let numeric = CMTime(value: 3, timescale: 4)
        #expect(numeric.isValid && numeric.isNumeric && !numeric.isIndefinite)
        #expect(CMTIME_IS_VALID(numeric) && CMTIME_IS_NUMERIC(numeric) && !CMTIME_IS_INVALID(numeric))
        #expect(CMTIME_IS_INVALID(.invalid) && !CMTIME_IS_NUMERIC(.invalid))
        #expect(CMTIME_IS_POSITIVEINFINITY(.positiveInfinity) && !CMTIME_IS_NUMERIC(.positiveInfinity))
        #expect(CMTIME_IS_NEGATIVEINFINITY(.negativeInfinity) && CMTime.negativeInfinity.isNegativeInfinity)
        #expect(CMTIME_IS_INDEFINITE(.indefinite) && CMTime.indefinite.isIndefinite)
        // Flags without .valid mean nothing.
        let bogus = CMTime(value: 0, timescale: 0, flags: .positiveInfinity, epoch: 0)
        #expect(!bogus.isPositiveInfinity && !bogus.isValid)
        #expect(!CMTIME_HAS_BEEN_ROUNDED(numeric))
        #expect(CMTIME_HAS_BEEN_ROUNDED(CMTime(value: 1, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 0)))
    }

    @Test func seconds() {
        #expect(CMTime(value: 3, timescale: 4).seconds == 0.75)
        #expect(CMTimeGetSeconds(CMTimeMakeWithEpoch(value: 3, timescale: 4, epoch: 9)) == 0.75)
        #expect(CMTime.invalid.seconds.isNaN && CMTime.indefinite.seconds.isNaN)
        #expect(CMTime.positiveInfinity.seconds == .infinity)
        #expect(CMTime.negativeInfinity.seconds == -.infinity)
    }

    @Test func makeWithSeconds() {
        let half = CMTime(seconds: 0.5, preferredTimescale: 600)
        #expect(half.value == 300 && half.timescale == 600 && !half.hasBeenRounded)
        // 200/600 converts back to exactly the Float64 1/3: not rounded, as Apple defines it.
        let third = CMTimeMakeWithSeconds(1.0 / 3, preferredTimescale: 600)
        #expect(third.value == 200 && !third.hasBeenRounded)
        let coarse = CMTimeMakeWithSeconds(0.4, preferredTimescale: 3)
        #expect(coarse.value == 1 && coarse.hasBeenRounded)
        #expect(!CMTimeMakeWithSeconds(1, preferredTimescale: 0).isValid)
        #expect(!CMTimeMakeWithSeconds(.nan, preferredTimescale: 600).isValid)
        #expect(CMTimeMakeWithSeconds(.infinity, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTimeMakeWithSeconds(-.infinity, preferredTimescale: 600).isNegativeInfinity)
        // 1e16 s at 1000/s overflows 64 bits; the timescale halves until it fits.
        let large = CMTimeMakeWithSeconds(1e16, preferredTimescale: 1000)
        #expect(large.isNumeric && large.timescale < 1000 && large.seconds == 1e16)
        #expect(CMTimeMakeWithSeconds(1e30, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTimeMakeWithSeconds(-1e30, preferredTimescale: 600).isNegativeInfinity)
    }

    @Test func equalityIsNumericalAndHashingAgrees() {
        let a = CMTime(value: 1, timescale: 2)
        let b = CMTime(value: 2, timescale: 4)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, CMTime(value: 3, timescale: 6)]).count == 1)
        #expect(CMTime(value: -1, timescale: 2) == CMTime(value: -3, timescale: 6))
        // All invalid times are equal to each other, whatever their fields.
        #expect(CMTime.invalid == CMTime(value: 7, timescale: 9, flags: [], epoch: 3))
        // Epochs distinguish otherwise equal times.
        #expect(CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 1) != CMTime(value: 1, timescale: 1))
    }

    @Test func sortOrderOfNonNumericTimes() {
        let ordered: [CMTime] = [
            .negativeInfinity, CMTime(value: -5, timescale: 1), .zero, CMTime(value: 1, timescale: 3),
            CMTimeMakeWithEpoch(value: -100, timescale: 1, epoch: 1), .indefinite, .positiveInfinity, .invalid,
        ]
        for (i, lhs) in ordered.enumerated() {
            for (j, rhs) in ordered.enumerated() {
                let expected: Int32 = i < j ? -1 : (i == j ? 0 : 1)
                #expect(CMTimeCompare(lhs, rhs) == expected, "\(i) vs \(j)")
            }
        }
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(CMTimeMinimum(.indefinite, .zero) == .zero)
        #expect(CMTimeMaximum(.indefinite, .positiveInfinity).isPositiveInfinity)
    }

    @Test func additionOfNonNumericTimes() {
        let one = CMTime(value: 1, timescale: 1)
        #expect(!(CMTime.invalid + one).isValid)
        #expect(!(CMTime.invalid + .positiveInfinity).isValid)
        #expect((CMTime.positiveInfinity + one).isPositiveInfinity)
        #expect((one + .negativeInfinity).isNegativeInfinity)
        #expect((CMTime.positiveInfinity + .positiveInfinity).isPositiveInfinity)
        #expect((CMTime.negativeInfinity + .negativeInfinity).isNegativeInfinity)
        #expect(!(CMTime.positiveInfinity + .negativeInfinity).isValid)
        #expect((CMTime.positiveInfinity + .indefinite).isPositiveInfinity)
        #expect((CMTime.indefinite + one).isIndefinite)
    }

    @Test func subtractionOfNonNumericTimes() {
        let one = CMTime(value: 1, timescale: 1)
        #expect(!(CMTime.positiveInfinity - .positiveInfinity).isValid)
        #expect(!(CMTime.negativeInfinity - .negativeInfinity).isValid)
        #expect((CMTime.positiveInfinity - .negativeInfinity).isPositiveInfinity)
        #expect((CMTime.negativeInfinity - .positiveInfinity).isNegativeInfinity)
        #expect((one - .positiveInfinity).isNegativeInfinity)
        #expect((one - .indefinite).isIndefinite)
        #expect(!(one - .invalid).isValid)
    }

    @Test func mixedTimescalesMeetInTheirLeastCommonMultiple() {
        let sum = CMTime(value: 1, timescale: 600) + CMTime(value: 1, timescale: 90000)
        #expect(sum.timescale == 90000 && sum.value == 151 && !sum.hasBeenRounded)
        let same = CMTime(value: 2, timescale: 4) + CMTime(value: 2, timescale: 4)
        #expect(same.timescale == 4 && same.value == 4)
    }

    @Test func leastCommonMultipleAboveTheMaximumIsRounded() {
        // Two primes near 1e9: their LCM does not fit in 32 bits.
        let sum = CMTime(value: 1, timescale: 1_000_000_007) + CMTime(value: 1, timescale: 1_000_000_009)
        #expect(sum.timescale == Int32(kCMTimeMaxTimescale))
        #expect(sum.hasBeenRounded)
        #expect(abs(sum.seconds - (1.0 / 1_000_000_007 + 1.0 / 1_000_000_009)) < 1.0 / Double(kCMTimeMaxTimescale))
    }

    @Test func overflowHalvesTheTimescaleThenGivesInfinity() {
        let big = CMTime(value: Int64.max / 2 + 1, timescale: 2)
        let sum = big + big
        #expect(sum.timescale == 1 && sum.value == Int64.max / 2 + 1 && !sum.hasBeenRounded)
        let odd = CMTime(value: Int64.max, timescale: 3) + CMTime(value: 1, timescale: 3)
        #expect(odd.timescale == 1 && odd.hasBeenRounded)
        #expect((CMTime(value: Int64.max, timescale: 1) + CMTime(value: 1, timescale: 1)).isPositiveInfinity)
        #expect((CMTime(value: Int64.min, timescale: 1) - CMTime(value: 1, timescale: 1)).isNegativeInfinity)
        #expect(CMTimeMultiply(CMTime(value: Int64.max, timescale: 1), multiplier: 2).isPositiveInfinity)
        #expect(CMTimeMultiply(CMTime(value: Int64.max, timescale: 1), multiplier: -2).isNegativeInfinity)
    }

    @Test func roundedFlagPropagates() {
        let rounded = CMTime(value: 1, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 0)
        #expect((rounded + .zero).hasBeenRounded)
        #expect((CMTime.zero - rounded).hasBeenRounded)
        #expect(CMTimeMultiply(rounded, multiplier: 2).hasBeenRounded)
        #expect(!(CMTime(value: 1, timescale: 3) + .zero).hasBeenRounded)
        // Times on one timescale (the fast path) too.
        let sameScale = rounded + CMTime(value: 2, timescale: 3)
        #expect(sameScale.value == 3 && sameScale.timescale == 3 && sameScale.hasBeenRounded)
        let difference = CMTime(value: 2, timescale: 3) - rounded
        #expect(difference.value == 1 && difference.timescale == 3 && difference.hasBeenRounded)
        #expect(!(CMTime(value: 1, timescale: 3) - CMTime(value: 1, timescale: 3)).hasBeenRounded)
    }

    @Test func epochs() {
        let loop1 = CMTimeMakeWithEpoch(value: 5, timescale: 1, epoch: 1)
        let loop1Later = CMTimeMakeWithEpoch(value: 7, timescale: 1, epoch: 1)
        let loop2 = CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 2)
        let duration = CMTime(value: 2, timescale: 1)
        // A duration added to a timestamp keeps the timestamp's epoch.
        #expect((loop1 + duration).epoch == 1 && (loop1 + duration).value == 7)
        #expect((duration + loop1).epoch == 1)
        // The difference of two times in one epoch is a duration.
        let difference = loop1Later - loop1
        #expect(difference.epoch == 0 && difference.value == 2)
        // Times in different non-zero epochs cannot be combined.
        #expect(!(loop2 - loop1).isValid)
        #expect(!(loop2 + loop1).isValid)
        // But they compare: a later epoch is always later.
        #expect(loop1Later < loop2)
    }

    @Test func multiplication() {
        let t = CMTime(value: 7, timescale: 600)
        let product = CMTimeMultiply(t, multiplier: 3)
        #expect(product.value == 21 && product.timescale == 600)
        #expect(CMTimeMultiply(t, multiplier: -2).value == -14)
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: -1).isNegativeInfinity)
        #expect(CMTimeMultiply(.indefinite, multiplier: 5).isIndefinite)
        #expect(!CMTimeMultiply(.invalid, multiplier: 5).isValid)
    }

    @Test func multiplicationByFloat64() {
        // The guide's CMTimeMultiplyByFloat64(asset.duration, 0.5).
        let half = CMTimeMultiplyByFloat64(CMTime(value: 10, timescale: 1), multiplier: 0.5)
        #expect(half.seconds == 5 && half.timescale >= 65536 && !half.hasBeenRounded)
        let large = CMTimeMultiplyByFloat64(CMTime(value: 1, timescale: 90000), multiplier: 2)
        #expect(large.timescale == 90000 && large.value == 2)
        let third = CMTimeMultiplyByFloat64(CMTime(value: 1, timescale: 1), multiplier: 1.0 / 3)
        #expect(third.hasBeenRounded && abs(third.seconds - 1.0 / 3) <= 0.5 / Double(third.timescale))
        #expect(!CMTimeMultiplyByFloat64(.zero, multiplier: .nan).isValid)
        #expect(CMTimeMultiplyByFloat64(.positiveInfinity, multiplier: -2).isNegativeInfinity)
    }

    @Test func multiplicationByRatio() {
        let t = CMTime(value: 10, timescale: 600)
        let half = CMTimeMultiplyByRatio(t, multiplier: 1, divisor: 2)
        #expect(half.value == 5 && half.timescale == 600 && !half.hasBeenRounded)
        let third = CMTimeMultiplyByRatio(CMTime(value: 1, timescale: 3), multiplier: 1, divisor: 2)
        #expect(third == CMTime(value: 1, timescale: 6) && !third.hasBeenRounded)
        let negative = CMTimeMultiplyByRatio(t, multiplier: 3, divisor: -4)
        #expect(negative == CMTime(value: -30, timescale: 2400) && !negative.hasBeenRounded)
        #expect(!CMTimeMultiplyByRatio(t, multiplier: 1, divisor: 0).isValid)
    }

    @Test func convertScaleWithEachRoundingMethod() {
        func convert(_ value: Int64, _ timescale: Int32, to newTimescale: Int32, _ method: CMTimeRoundingMethod) -> Int64 {
            CMTime(value: value, timescale: timescale).convertScale(newTimescale, method: method).value
        }
        // The worked values of the CoreMedia documentation: 1/4 and 1/5 on timescale 2.
        #expect(convert(1, 4, to: 2, .roundHalfAwayFromZero) == 1)
        #expect(convert(1, 5, to: 2, .roundHalfAwayFromZero) == 0)
        #expect(convert(-1, 4, to: 2, .roundHalfAwayFromZero) == -1)
        #expect(convert(3, 4, to: 2, .roundTowardZero) == 1)
        #expect(convert(-3, 4, to: 2, .roundTowardZero) == -1)
        #expect(convert(1, 5, to: 2, .roundAwayFromZero) == 1)
        #expect(convert(-1, 5, to: 2, .roundAwayFromZero) == -1)
        #expect(convert(-1, 5, to: 2, .roundTowardPositiveInfinity) == 0)
        #expect(convert(1, 5, to: 2, .roundTowardPositiveInfinity) == 1)
        #expect(convert(1, 5, to: 2, .roundTowardNegativeInfinity) == 0)
        #expect(convert(-1, 5, to: 2, .roundTowardNegativeInfinity) == -1)
        // QuickTime: toward zero to a smaller timescale, away from zero to a larger one, and a
        // negative time never becomes zero.
        #expect(convert(1, 5, to: 2, .quickTime) == 0)
        #expect(convert(-1, 5, to: 2, .quickTime) == -1)
        #expect(convert(1, 7, to: 10, .quickTime) == 2)
        #expect(convert(-1, 7, to: 10, .quickTime) == -2)

        let exact = CMTime(value: 1, timescale: 2).convertScale(600, method: .default)
        #expect(exact.value == 300 && exact.timescale == 600 && !exact.hasBeenRounded)
        #expect(CMTime(value: 1, timescale: 3).convertScale(2, method: .default).hasBeenRounded)
        #expect(CMTimeConvertScale(.positiveInfinity, timescale: 600, method: .default).isPositiveInfinity)
        #expect(CMTimeConvertScale(.indefinite, timescale: 600, method: .default).isIndefinite)
        #expect(CMTimeConvertScale(CMTimeMakeWithEpoch(value: 1, timescale: 2, epoch: 4), timescale: 4, method: .default).epoch == 4)
    }

    @Test func absoluteValue() {
        #expect(CMTimeAbsoluteValue(CMTime(value: -3, timescale: 4)) == CMTime(value: 3, timescale: 4))
        #expect(CMTimeAbsoluteValue(CMTime(value: 3, timescale: 4)).value == 3)
        #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
        #expect(CMTimeAbsoluteValue(.indefinite).isIndefinite)
    }

    @Test func compoundAssignment() {
        var t = CMTime(value: 1, timescale: 30)
        t += CMTime(value: 1, timescale: 30)
        t -= CMTime(value: 1, timescale: 60)
        #expect(t == CMTime(value: 3, timescale: 60))
        t = CMTimeMultiplyByFloat64(t, multiplier: 2)
        #expect(t == CMTime(value: 1, timescale: 10))
    }

    @Test func descriptions() {
        #expect(CMTimeCopyDescription(allocator: kCFAllocatorDefault, time: CMTime(value: 1, timescale: 3)) == "{1/3 = 0.333}")
        #expect(CMTimeCopyDescription(allocator: nil, time: .invalid) == "{INVALID}")
        #expect(CMTimeCopyDescription(allocator: nil, time: .indefinite) == "{INDEFINITE}")
        #expect(CMTimeCopyDescription(allocator: nil, time: .positiveInfinity) == "{+INFINITY}")
        #expect(CMTimeCopyDescription(allocator: nil, time: .negativeInfinity) == "{-INFINITY}")
    }

    @Test func dictionaryRoundTrip() throws {
        let times = [CMTimeMakeWithEpoch(value: -12345, timescale: 90000, epoch: 3), .positiveInfinity, .invalid,
                     CMTime(value: 1, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 0)]
        for time in times {
            let dictionary = try #require(CMTimeCopyAsDictionary(time, allocator: kCFAllocatorDefault))
            let back = CMTimeMakeFromDictionary(dictionary)
            #expect(back.value == time.value && back.timescale == time.timescale)
            #expect(back.flags == time.flags && back.epoch == time.epoch)
            let plain = try #require(dictionary as? [String: Any])
            #expect((plain[kCMTimeValueKey as String] as? NSNumber)?.int64Value == time.value)
        }
        #expect(!CMTimeMakeFromDictionary(["value": 1] as NSDictionary).isValid)
        #expect(!CMTimeMakeFromDictionary(nil).isValid)
    }
}
