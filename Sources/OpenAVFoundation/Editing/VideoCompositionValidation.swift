import Foundation
import OpenCoreMedia

/// One run of `AVVideoComposition.isValid(for:timeRange:validationDelegate:)`: every problem
/// found goes to the delegate, which says whether to look further. Also why an export or a
/// reader refuses a composition (the first problem, in words).
struct VideoCompositionValidation {
    let composition: AVVideoComposition
    let asset: AVAsset?
    let delegate: (any AVVideoCompositionValidationHandling)?
    /// The problems found, in words.
    private(set) var problems: [String] = []

    init(composition: AVVideoComposition, asset: AVAsset?, delegate: (any AVVideoCompositionValidationHandling)?) {
        self.composition = composition
        self.asset = asset
        self.delegate = delegate
    }

    /// Whether `timeRange` (the asset's duration when invalid) renders.
    func run(_ timeRange: CMTimeRange) -> Bool {
        var validation = self
        validation.check(timeRange)
        return validation.problems.isEmpty
    }

    /// The first problem with rendering `timeRange`, or nil.
    static func problem(of composition: AVVideoComposition, asset: AVAsset, timeRange: CMTimeRange) -> String? {
        var validation = VideoCompositionValidation(composition: composition, asset: asset, delegate: nil)
        validation.check(timeRange)
        return validation.problems.first
    }

    private mutating func check(_ timeRange: CMTimeRange) {
        let composition = self.composition, asset = self.asset
        let size = composition.renderSize
        if !(size.width > 0 && size.height > 0),
           !report("renderSize is \(size.width)x\(size.height)", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderSize") }) { return }
        let frameDuration = composition.frameDuration
        if !(frameDuration.isNumeric && frameDuration > .zero),
           !report("frameDuration is not a positive time", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "frameDuration") }) { return }
        if !(composition.renderScale > 0),
           !report("renderScale is \(composition.renderScale)", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidValueForKey: "renderScale") }) { return }

        let covered = timeRange.isValid && timeRange.duration.isNumeric
            ? timeRange : CMTimeRange(start: .zero, duration: asset?.duration.isNumeric == true ? asset!.duration : .zero)
        var reached = covered.start
        let videoTrackIDs = Set(asset?.tracks(withMediaType: .video).map(\.trackID) ?? [])
        for instruction in composition.instructions.sorted(by: { $0.timeRange.start < $1.timeRange.start }) {
            let range = instruction.timeRange
            guard range.isValid, range.start.isNumeric, range.duration.isNumeric, range.duration > .zero else {
                if !report("an instruction's time range is invalid", { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction) }) { return }
                continue
            }
            if range.start < reached, range.end > covered.start {
                if !report("an instruction at \(range.start.seconds) s overlaps the one before it",
                           { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction) }) { return }
            } else if range.start > reached, reached < covered.end {
                let gap = CMTimeRange(start: reached, end: min(range.start, covered.end))
                if !report("no instruction covers \(gap.start.seconds)–\(gap.end.seconds) s",
                           { $0.videoComposition(composition, shouldContinueValidatingAfterFindingEmptyTimeRange: gap) }) { return }
            }
            reached = max(reached, range.end)
            guard let asset, let builtIn = instruction as? AVVideoCompositionInstruction else { continue }
            for layer in builtIn.layerInstructions where !videoTrackIDs.contains(layer.trackID) {
                if !report("a layer instruction names track \(layer.trackID), which is not a video track of the asset",
                           { $0.videoComposition(composition, shouldContinueValidatingAfterFindingInvalidTrackIDIn: instruction,
                                                 layerInstruction: layer, asset: asset) }) { return }
            }
        }
        if reached < covered.end {
            let gap = CMTimeRange(start: reached, end: covered.end)
            _ = report("no instruction covers \(gap.start.seconds)–\(gap.end.seconds) s",
                       { $0.videoComposition(composition, shouldContinueValidatingAfterFindingEmptyTimeRange: gap) })
        }
    }

    /// Notes a problem; whether to go on (the delegate's answer; without one, yes).
    private mutating func report(_ problem: String, _ ask: (any AVVideoCompositionValidationHandling) -> Bool) -> Bool {
        problems.append(problem)
        return delegate.map(ask) ?? true
    }
}
