import Foundation
import Testing
import OpenCoreMedia

@Suite(.timeLimit(.minutes(10))) struct CMTimeRangeTests {
    let oneToFour = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 3, timescale: 1))

    @Test func guideRangeExample() {
        // The guide: a range does not include start + duration.
        let start = CMTimeMakeWithSeconds(1.0, preferredTimescale: 600)
        let duration = CMTimeMakeWithSeconds(3.0, preferredTimescale: 600)
        let range = CMTimeRangeMake(start: start, duration: duration)
        #expect(!CMTimeRangeContainsTime(range, time: CMTimeRangeGetEnd(range)))
        #expect(CMTimeRangeContainsTime(range, time: start))
        #expect(CMTimeRangeGetEnd(range) == CMTime(value: 4, timescale: 1))
        #expect(CMTimeRangeCopyDescription(allocator: nil, range: range) == "{{600/600 = 1.000}, {1800/600 = 3.000}}")
    }

    @Test func constantsAndValidity() {
        #expect(CMTimeRange.zero.isValid && CMTimeRange.zero.isEmpty && CMTIMERANGE_IS_EMPTY(kCMTimeRangeZero))
        #expect(!CMTimeRange.invalid.isValid && CMTIMERANGE_IS_INVALID(kCMTimeRangeInvalid))
        #expect(!CMTimeRange(start: .zero, duration: CMTime(value: -1, timescale: 1)).isValid)
        #expect(!CMTimeRange(start: .zero, duration: CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 2)).isValid)
        #expect(CMTimeRange(start: CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 2), duration: .zero).isValid)
        let live = CMTimeRange(start: .zero, duration: .indefinite)
        #expect(live.isValid && live.isIndefinite && CMTIMERANGE_IS_INDEFINITE(live) && !live.isEmpty)
        #expect(!oneToFour.isEmpty && CMTIMERANGE_IS_VALID(oneToFour))
        #expect(!CMTimeRange.invalid.end.isValid)
    }

    @Test func startEndInitializer() {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), end: CMTime(value: 3, timescale: 4))
        #expect(range.duration == CMTime(value: 1, timescale: 4))
        #expect(CMTimeRangeFromTimeToTime(start: CMTime(value: 1, timescale: 2), end: CMTime(value: 3, timescale: 4)) == range)
    }

    @Test func containment() {
        #expect(oneToFour.containsTime(CMTime(value: 1, timescale: 1)))
        #expect(oneToFour.containsTime(CMTime(value: 3999, timescale: 1000)))
        #expect(!oneToFour.containsTime(CMTime(value: 4, timescale: 1)))
        #expect(!oneToFour.containsTime(CMTime(value: 999, timescale: 1000)))
        #expect(!oneToFour.containsTime(.invalid))
        let inner = CMTimeRange(start: CMTime(value: 2, timescale: 1), end: CMTime(value: 4, timescale: 1))
        #expect(oneToFour.containsTimeRange(inner) && !inner.containsTimeRange(oneToFour))
        #expect(CMTimeRangeContainsTimeRange(oneToFour, otherRange: oneToFour))
        let overhanging = CMTimeRange(start: CMTime(value: 3, timescale: 1), duration: CMTime(value: 2, timescale: 1))
        #expect(!oneToFour.containsTimeRange(overhanging))
    }

    @Test func unionAndIntersection() {
        let threeToSix = CMTimeRange(start: CMTime(value: 3, timescale: 1), end: CMTime(value: 6, timescale: 1))
        #expect(oneToFour.union(threeToSix) == CMTimeRange(start: CMTime(value: 1, timescale: 1), end: CMTime(value: 6, timescale: 1)))
        #expect(oneToFour.intersection(threeToSix) == CMTimeRange(start: CMTime(value: 3, timescale: 1), end: CMTime(value: 4, timescale: 1)))
        let later = CMTimeRange(start: CMTime(value: 10, timescale: 1), duration: CMTime(value: 1, timescale: 1))
        #expect(oneToFour.intersection(later) == .zero)
        #expect(CMTimeRangeGetUnion(oneToFour, otherRange: later).duration == CMTime(value: 10, timescale: 1))
        #expect(!CMTimeRangeGetIntersection(oneToFour, otherRange: .invalid).isValid)
    }

    @Test func equalityIsNumerical() {
        let a = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        let b = CMTimeRange(start: CMTime(value: 300, timescale: 600), duration: CMTime(value: 600, timescale: 600))
        #expect(a == b && CMTimeRangeEqual(a, b) && a.hashValue == b.hashValue)
        #expect(a != oneToFour)
    }

    @Test func clampAndFold() {
        #expect(CMTimeClampToRange(CMTime(value: 0, timescale: 1), range: oneToFour) == CMTime(value: 1, timescale: 1))
        #expect(CMTimeClampToRange(CMTime(value: 9, timescale: 1), range: oneToFour) == CMTime(value: 4, timescale: 1))
        #expect(CMTimeClampToRange(CMTime(value: 5, timescale: 2), range: oneToFour) == CMTime(value: 5, timescale: 2))
        #expect(!CMTimeClampToRange(.invalid, range: oneToFour).isValid)
        #expect(!CMTimeClampToRange(.zero, range: .zero).isValid)
        // Folding loops a time into the range: 1 + 3k + 0.5 -> 1.5.
        #expect(CMTimeFoldIntoRange(CMTime(value: 17, timescale: 2), foldRange: oneToFour) == CMTime(value: 5, timescale: 2))
        #expect(CMTimeFoldIntoRange(CMTime(value: -1, timescale: 1), foldRange: oneToFour) == CMTime(value: 2, timescale: 1))
    }

    @Test func dictionaryRoundTrip() throws {
        let dictionary = try #require(CMTimeRangeCopyAsDictionary(oneToFour, allocator: nil))
        #expect(CMTimeRangeMakeFromDictionary(dictionary) == oneToFour)
        #expect(!CMTimeRangeMakeFromDictionary([:] as NSDictionary).isValid)
    }
}

@Suite(.timeLimit(.minutes(10))) struct CMTimeMappingTests {
    let tenSeconds = CMTimeRange(start: .zero, duration: CMTime(value: 10, timescale: 1))
    let twentyFromHundred = CMTimeRange(start: CMTime(value: 100, timescale: 1), duration: CMTime(value: 20, timescale: 1))

    @Test func mapsTimesLinearly() {
        #expect(CMTimeMapTimeFromRangeToRange(CMTime(value: 5, timescale: 1), fromRange: tenSeconds, toRange: twentyFromHundred) == CMTime(value: 110, timescale: 1))
        #expect(CMTimeMapTimeFromRangeToRange(.zero, fromRange: tenSeconds, toRange: twentyFromHundred) == CMTime(value: 100, timescale: 1))
        #expect(CMTimeMapTimeFromRangeToRange(CMTime(value: 10, timescale: 1), fromRange: tenSeconds, toRange: twentyFromHundred) == CMTime(value: 120, timescale: 1))
        // A third of the way through a range of 1 s maps exactly (1/3 is not a decimal).
        let third = CMTimeMapTimeFromRangeToRange(CMTime(value: 1, timescale: 3), fromRange: CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1)), toRange: twentyFromHundred)
        #expect(third == CMTime(value: 320, timescale: 3) && !third.hasBeenRounded)
    }

    @Test func mapsDurations() {
        #expect(CMTimeMapDurationFromRangeToRange(CMTime(value: 3, timescale: 1), fromRange: tenSeconds, toRange: twentyFromHundred) == CMTime(value: 6, timescale: 1))
        #expect(!CMTimeMapDurationFromRangeToRange(CMTimeMakeWithEpoch(value: 3, timescale: 1, epoch: 1), fromRange: tenSeconds, toRange: twentyFromHundred).isValid)
    }

    @Test func emptyRangesAndForeignEpochsGiveInvalidTimes() {
        #expect(!CMTimeMapTimeFromRangeToRange(.zero, fromRange: .zero, toRange: twentyFromHundred).isValid)
        #expect(!CMTimeMapTimeFromRangeToRange(.zero, fromRange: tenSeconds, toRange: .zero).isValid)
        #expect(!CMTimeMapTimeFromRangeToRange(CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 3), fromRange: tenSeconds, toRange: twentyFromHundred).isValid)
    }

    @Test func infiniteRangesOffsetWithoutScaling() {
        let from = CMTimeRange(start: CMTime(value: 2, timescale: 1), duration: .positiveInfinity)
        let to = CMTimeRange(start: CMTime(value: 50, timescale: 1), duration: .positiveInfinity)
        #expect(CMTimeMapTimeFromRangeToRange(CMTime(value: 7, timescale: 1), fromRange: from, toRange: to) == CMTime(value: 55, timescale: 1))
    }

    @Test func emptyEdits() {
        let mapping = CMTimeMappingMakeEmpty(target: tenSeconds)
        #expect(CMTIMEMAPPING_IS_EMPTY(mapping) && CMTIMEMAPPING_IS_VALID(mapping))
        let edit = CMTimeMapping(source: tenSeconds, target: twentyFromHundred)
        #expect(!CMTIMEMAPPING_IS_EMPTY(edit) && CMTimeMappingMake(source: tenSeconds, target: twentyFromHundred) == edit)
        #expect(!CMTIMEMAPPING_IS_VALID(.invalid))
    }
}
