import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav concat A B … OUT [--crossfade SECONDS] [--preset NAME]`: joins files end to end
/// (through an `AVMutableComposition`, an `AVMutableVideoComposition` and an
/// `AVMutableAudioMix`, exported with a preset), each picture fitted into the first file's
/// size, with an optional dissolve of pictures and sound between each two.
struct Concat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join media files end to end into one, optionally dissolving from each into the next.",
        discussion: """
            Every picture is turned upright and fitted into the first file's size (or --size), centred on black; the frame \
            rate is the fastest file's (or --fps). The output's type follows its extension (.mov, .mp4, .m4v); it is \
            re-encoded with the preset. Existing files are never overwritten; Ctrl-C cancels and removes the partial file.
            """
    )

    @Argument(help: "Two or more files to join, then the file to write.")
    var files: [String]

    @Option(help: "Dissolve from each file into the next over this many seconds (pictures and sound).")
    var crossfade: Double = 0

    @OptionGroup var rendering: RenderingOptions

    func validate() throws {
        guard files.count >= 3 else { throw ValidationError("give two or more files to join, then the file to write") }
        try rendering.validate(output: files.last!)
        guard crossfade >= 0 else { throw ValidationError("--crossfade must not be negative") }
    }

    func run() async throws {
        let assets = try await EditPlan.open(Array(files.dropLast()))
        let fade = CMTime(seconds: crossfade, preferredTimescale: 600)
        var plan = EditPlan()
        var start = CMTime.zero
        for (index, asset) in assets.enumerated() {
            let source = CMTimeRange(start: asset.timelineOrigin, end: asset.duration)
            if index > 0, fade > .zero {
                guard fade < source.duration, fade < plan.clips[index - 1].duration else {
                    throw CommandFailure("--crossfade \(crossfade) is longer than \(files[index]) or the file before it")
                }
                start = start - fade
                let dissolve = CMTimeRange(start: start, duration: fade)
                plan.clips[index - 1].opacity.append(.init(range: dissolve, from: 1, to: 0))
                plan.clips[index - 1].volume.append(.init(range: dissolve, from: 1, to: 0))
                var clip = EditPlan.Clip(asset: asset, source: source, start: start, duration: source.duration)
                clip.volume.append(.init(range: dissolve, from: 0, to: 1))
                plan.clips.append(clip)
            } else {
                plan.clips.append(EditPlan.Clip(asset: asset, source: source, start: start, duration: source.duration))
            }
            start = start + source.duration
        }
        try await rendering.render(plan, to: files.last!)
    }
}
