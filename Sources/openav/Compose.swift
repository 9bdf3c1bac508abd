import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav compose TIMELINE.otio OUT [--preset NAME]`: renders an OpenTimelineIO timeline (the
/// film and TV industry's editorial interchange format) through the editing API: clips with
/// source ranges, gaps, several video and audio tracks (later video tracks on top), SMPTE
/// dissolves as opacity and volume ramps, linear time warps as scaled time ranges, media by
/// path or `file:` URL.
struct Compose: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render an OpenTimelineIO timeline (.otio) to a movie.",
        discussion: """
            Supported: Timeline, Stack, Track (Video and Audio), Clip with an ExternalReference, Gap, SMPTE_Dissolve \
            transitions, LinearTimeWarp effects. Anything else is refused with its name. Pictures are fitted into the first \
            clip's size (or --size), the frame rate is the fastest clip's (or --fps). Existing files are never overwritten.
            """
    )

    @Argument(help: "The timeline to render (.otio, JSON).")
    var timeline: String

    @Argument(help: "The file to write (.mov, .mp4, .m4v).")
    var output: String

    @OptionGroup var rendering: RenderingOptions

    func validate() throws {
        try rendering.validate(output: output)
    }

    func run() async throws {
        let url = URL(fileURLWithPath: timeline)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandFailure("cannot read \(timeline): \(error.localizedDescription)")
        }
        let plan = try await OpenTimeline(data, folder: url.deletingLastPathComponent()).plan()
        guard !plan.clips.isEmpty else { throw CommandFailure("\(timeline) has no clip") }
        try await rendering.render(plan, to: output)
    }
}
