import Foundation
import Testing
import TestSupport

/// `openav concat` and `openav compose` run as a user runs them, each output compared frame by
/// frame with ffmpeg's filter graph doing the same edit (and its sound by loudness).
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct EditCommandTests {
    static func output(_ name: String) -> String {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    /// A 2 s 25 fps clip of a lavfi `source` at `size`, with a tone at `frequency`; `blurred`
    /// softens the picture (smooth content, where two scalers can agree).
    static func clip(_ source: String, _ size: String, frequency: Int, blurred: Bool = false) throws -> URL {
        try Fixtures.make("edit-\(source)-\(size)-\(frequency)\(blurred ? "-blurred" : "").mp4", [
            "-f", "lavfi", "-i", "\(source)=size=\(size):rate=25\(blurred ? ",gblur=sigma=3" : "")", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000",
            "-t", "2", "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k",
        ])
    }

    /// ffmpeg's 4:2:0 frames of a filter graph over some inputs, `[out]` being the pictures;
    /// each input is first converted to BGRA as the reader converts, then to planar RGB.
    static func reference(_ inputs: [URL], _ graph: String, width: Int = 320, height: Int = 240) throws -> [[UInt8]] {
        let converted = inputs.indices.map { "[\($0):v]format=bgra,format=gbrp[in\($0)]" }.joined(separator: ";")
        let data = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error"] + inputs.flatMap { ["-i", $0.path] } + [
            "-filter_complex", converted + ";" + graph + ",format=yuv420p[out]", "-map", "[out]", "-fps_mode", "passthrough",
            "-f", "rawvideo", "-"]))
        let size = width * height * 3 / 2
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
    }

    /// The decoded 4:2:0 frames of a file.
    static func frames(_ path: String, width: Int = 320, height: Int = 240) throws -> [[UInt8]] {
        let data = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-pix_fmt", "yuv420p",
                                                       "-fps_mode", "passthrough", "-f", "rawvideo", "-"]))
        let size = width * height * 3 / 2
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0..<$0 + size]) }
    }

    static func expectClose(_ ours: [[UInt8]], _ reference: [[UInt8]], threshold: Double = 35, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ours.count == reference.count, "ours \(ours.count) frames, ffmpeg \(reference.count)", sourceLocation: sourceLocation)
        let worst = zip(ours, reference).map { PixelComparison.psnr($0, $1) }.enumerated().min { $0.element < $1.element }
        #expect((worst?.element ?? 0) >= threshold, "frame \(worst?.offset ?? -1): \(worst?.element ?? 0) dB", sourceLocation: sourceLocation)
    }

    /// The loudness (RMS) of a file's sound over `from`–`to` seconds.
    static func loudness(_ path: String, _ from: Double, _ to: Double) throws -> Double {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let slice = samples[min(samples.count, Int(from * 48000))..<min(samples.count, Int(to * 48000))]
        return (slice.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, slice.count))).squareRoot()
    }

    @Test func concatDissolvesFromOneFileIntoTheNext() throws {
        let a = try Self.clip("testsrc2", "320x240", frequency: 440)
        let b = try Self.clip("smptebars", "320x240", frequency: 880)
        let out = Self.output("concat-crossfade.mp4")
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav,
                                                                 ["concat", a.path, b.path, out, "--crossfade", "0.5"])
        try #require(status == 0, "\(errors)")
        #expect(output.hasPrefix("\(out): HighestQuality,"))
        let reference = try Self.reference([a, b], "[in0][in1]xfade=transition=fade:duration=0.5:offset=1.5")
        Self.expectClose(try Self.frames(out), reference)
        // The sound: the first tone, both at half during the dissolve, then the second.
        let full = try Self.loudness(a.path, 0.2, 1.2)
        #expect(abs(try Self.loudness(out, 0.2, 1.2) - full) < 0.05 * full)
        #expect(abs(try Self.loudness(out, 2.2, 3.2) - full) < 0.05 * full)
        let middle = try Self.loudness(out, 1.7, 1.8)
        #expect(middle > 0.3 * full && middle < 0.8 * full, "during the dissolve \(middle) against \(full)")
    }

    @Test func concatFitsEachPictureIntoTheFirstOnesSize() throws {
        let a = try Self.clip("testsrc2", "320x240", frequency: 440)
        let b = try Self.clip("testsrc", "480x360", frequency: 660, blurred: true)
        let c = try Self.clip("testsrc2", "240x240", frequency: 880, blurred: true)
        let out = Self.output("concat-sizes.mov")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["concat", a.path, b.path, c.path, out])
        try #require(status == 0, "\(errors)")
        let fit = "scale=320:240:force_original_aspect_ratio=decrease:flags=bilinear,pad=320:240:(ow-iw)/2:(oh-ih)/2:black"
        let reference = try Self.reference([a, b, c], "[in0]null[v0];[in1]\(fit)[v1];[in2]\(fit)[v2];[v0][v1][v2]concat=n=3:v=1:a=0")
        Self.expectClose(try Self.frames(out), reference)
        let format = try #require(try Fixtures.probe(URL(fileURLWithPath: out))["format"] as? [String: Any])
        #expect(abs((Double(format["duration"] as? String ?? "") ?? 0) - 6) < 0.1)
    }

    @Test func concatRefusesWhatItCannotDo() throws {
        let a = try Self.clip("testsrc2", "320x240", frequency: 440)
        let out = Self.output("refused.mp4")
        let tooFew = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["concat", a.path, out])
        #expect(tooFew.0 != 0 && tooFew.2.contains("two or more files"))
        let passthrough = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["concat", a.path, a.path, out, "--preset", "Passthrough"])
        #expect(passthrough.0 != 0 && passthrough.2.contains("cannot render an edit"))
        let long = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["concat", a.path, a.path, out, "--crossfade", "3"])
        #expect(long.0 == 1 && long.2.contains("longer than"), "\(long.2)")
        let missing = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["concat", a.path, "/nonexistent.mp4", out])
        #expect(missing.0 == 1 && missing.2.contains("cannot open /nonexistent.mp4"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Writes an OpenTimelineIO timeline with the `opentimelineio` package's own API.
    static func timeline(_ script: String, name: String) throws -> URL {
        let url = URL(fileURLWithPath: output(name))
        _ = try Fixtures.run("python3", ["-c", """
            import opentimelineio as otio
            RT = otio.opentime.RationalTime
            TR = otio.opentime.TimeRange
            def clip(name, path, start, duration):
                return otio.schema.Clip(name=name, media_reference=otio.schema.ExternalReference(target_url=path),
                                        source_range=TR(RT(start, 25), RT(duration, 25)))
            timeline = otio.schema.Timeline(name="test")
            \(script.split(separator: "\n").joined(separator: "\n"))
            otio.adapters.write_to_file(timeline, "\(url.path)")
            """])
        return url
    }

    @Test func composeRendersAnOpenTimelineIOTimeline() throws {
        let a = try Self.clip("testsrc2", "320x240", frequency: 440)
        let b = try Self.clip("smptebars", "320x240", frequency: 880)
        // A 0.48–1.48 s, dissolving (0.2 s each side of the cut) into B 0.4–1.4 s, a 0.4 s
        // gap, then A's first two seconds played in one (a linear time warp of 2); B's sound.
        let otio = try Self.timeline("""
            video = otio.schema.Track(name="V1", kind=otio.schema.TrackKind.Video)
            video.append(clip("a", "\(a.path)", 12, 25))
            video.append(otio.schema.Transition(transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve, in_offset=RT(5, 25), out_offset=RT(5, 25)))
            video.append(clip("b", "\(b.path)", 10, 25))
            video.append(otio.schema.Gap(source_range=TR(RT(0, 25), RT(10, 25))))
            fast = clip("a-fast", "\(a.path)", 0, 25)
            fast.effects.append(otio.schema.LinearTimeWarp(time_scalar=2.0))
            video.append(fast)
            audio = otio.schema.Track(name="A1", kind=otio.schema.TrackKind.Audio)
            audio.append(clip("tone", "\(b.path)", 0, 50))
            timeline.tracks.append(video)
            timeline.tracks.append(audio)
            """, name: "timeline.otio")
        let out = Self.output("composed.mp4")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["compose", otio.path, out])
        try #require(status == 0, "\(errors)")
        let graph = "[in0]split=2[a0][a1];"
            + "[a0]trim=start=0.48:end=1.68,setpts=PTS-STARTPTS[x];[in1]trim=start=0.2:end=1.4,setpts=PTS-STARTPTS[y];"
            + "[x][y]xfade=transition=fade:duration=0.4:offset=0.8[dissolved];"
            + "color=black:size=320x240:rate=25:duration=0.4,format=bgra,format=gbrp[gap];"
            + "[a1]trim=start=0:end=2,setpts=0.5*(PTS-STARTPTS),fps=25[fast];"
            + "[dissolved][gap][fast]concat=n=3:v=1:a=0"
        Self.expectClose(try Self.frames(out), try Self.reference([a, b], graph))
        // The audio track: two seconds of B's tone.
        let tone = try Self.loudness(b.path, 0.2, 1.8)
        #expect(abs(try Self.loudness(out, 0.2, 1.8) - tone) < 0.05 * tone)
        let audio = try #require((try Fixtures.probe(URL(fileURLWithPath: out))["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "audio" })
        #expect(abs((Double(audio["duration"] as? String ?? "") ?? 0) - 2) < 0.05)
    }

    @Test func composeRefusesWhatItDoesNotSupport() throws {
        let a = try Self.clip("testsrc2", "320x240", frequency: 440)
        let otio = try Self.timeline("""
            video = otio.schema.Track(name="V1", kind=otio.schema.TrackKind.Video)
            video.append(clip("a", "\(a.path)", 0, 25))
            video.append(otio.schema.Transition(transition_type="SMPTE_Wipe", in_offset=RT(5, 25), out_offset=RT(5, 25)))
            video.append(clip("b", "\(a.path)", 25, 25))
            timeline.tracks.append(video)
            """, name: "wipe.otio")
        let out = Self.output("wipe.mp4")
        let (status, _, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["compose", otio.path, out])
        #expect(status == 1 && errors.contains("SMPTE_Wipe"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
