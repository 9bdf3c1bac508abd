import Foundation
import OpenAVFoundation

/// `openav play`'s subtitles: the cues of the subtitle option playing, from each item's legible
/// output, told as lines above the status line ("› text") when playback reaches them.
final class SubtitleLines: NSObject, AVPlayerItemLegibleOutputPushDelegate, @unchecked Sendable {
    private let report: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "openav.play.subtitles")

    /// Lines go to `report`.
    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
        super.init()
    }

    /// Gives `item`'s cues to this object.
    func follow(_ item: AVPlayerItem) {
        let output = AVPlayerItemLegibleOutput()
        output.setDelegate(self, queue: queue)
        item.add(output)
    }

    func legibleOutput(_ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
                       nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime) {
        let text = strings.map(\.string).joined(separator: "\n")
        guard !text.isEmpty else { return }
        for line in text.split(separator: "\n") { report("› " + line) }
    }
}
