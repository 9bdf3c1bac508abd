import ArgumentParser
import Foundation
import OpenAVFoundation

/// The options of the editing commands (`concat`, `compose`) for the movie they write: the
/// preset, the size of the pictures and their rate; and the rendering of an edit with them.
struct RenderingOptions: ParsableArguments {
    @Option(help: "The preset, such as 1920x1080, HEVC1920x1080 or HighestQuality.")
    var preset = "HighestQuality"

    @Option(help: "The size of the pictures, as WIDTHxHEIGHT (the first picture's upright size by default).")
    var size: String?

    @Option(help: "Pictures per second (the fastest file's rate by default).")
    var fps: Double?

    /// Checks the options and the output's extension (the preset must encode pictures).
    func validate(output: String) throws {
        guard let type = Convert.fileTypes[URL(fileURLWithPath: output).pathExtension.lowercased()], type != .m4a else {
            throw ValidationError("the output must end in .mov, .mp4 or .m4v")
        }
        guard let name = Export.presetName(preset) else { throw ValidationError("unknown --preset \(preset)") }
        guard name != AVAssetExportPresetPassthrough, !name.contains("AppleM4A") else {
            throw ValidationError("--preset \(preset) cannot render an edit: choose one that encodes video, such as HighestQuality")
        }
        _ = try renderSize
        if let fps, !(fps > 0) { throw ValidationError("--fps must be positive") }
    }

    /// The `--size` given, or nil.
    private var renderSize: CGSize? {
        get throws {
            guard let size else { return nil }
            let sides = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard sides.count == 2, sides[0] > 0, sides[1] > 0, sides.allSatisfy({ $0 % 2 == 0 }) else {
                throw ValidationError("--size must be WIDTHxHEIGHT with even sides, such as 1920x1080")
            }
            return CGSize(width: sides[0], height: sides[1])
        }
    }

    /// Sets the plan's picture size (given, else the first picture's upright size) and frame
    /// duration (given, else the fastest video track's), builds the edit and exports it to
    /// `path` with the preset and the progress line.
    func render(_ edit: EditPlan, to path: String) async throws {
        var plan = edit
        let assets = plan.clips.map(\.asset)
        guard let size = try renderSize ?? assets.lazy.map(EditPlan.uprightSize).first(where: { $0 != .zero }) else {
            throw CommandFailure("no file has pictures to show")
        }
        plan.renderSize = size
        if let fps {
            plan.frameDuration = CMTime(seconds: 1 / fps, preferredTimescale: 90000)
        } else if let fastest = assets.compactMap({ $0.tracks(withMediaType: .video).first?.minFrameDuration })
            .filter({ $0.isNumeric && $0 > .zero }).min() {
            plan.frameDuration = fastest
        }
        let (composition, videoComposition, audioMix) = try plan.build()
        let url = URL(fileURLWithPath: path)
        guard let name = Export.presetName(preset), let session = AVAssetExportSession(asset: composition, presetName: name) else {
            throw CommandFailure("the preset \(preset) cannot export this edit")
        }
        session.outputURL = url
        session.outputFileType = Convert.fileTypes[url.pathExtension.lowercased()]
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        try await Export.run(session, writing: path, presetName: name)
    }
}
