import Foundation
import OpenAVFoundation

/// `openav preview --codes`: outlines each code the metadata output reports where the preview
/// layer shows it (a green bordered layer over its bounds, through
/// `transformedMetadataObject(for:)`), and hands the codes on to a `CodePrinter`. An outline
/// goes once its code has not been seen for half a second (`sweep()`, which the command calls
/// as time passes: the output reports only frames with codes).
final class CodeOutlines: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let layer: AVCaptureVideoPreviewLayer
    private let printer: CodePrinter
    /// The queue the output calls on, where the outlines are kept.
    let queue = DispatchQueue(label: "openav.preview.codes")
    /// Used on `queue` only: each code's outline and when it was last seen.
    private var outlines: [String: (layer: CALayer, seen: Date)] = [:]
    private static let color = CGColor(srgbRed: 0, green: 1, blue: 0, alpha: 1)
    private static let lingering: TimeInterval = 0.5

    /// Outlines on `layer`, codes printed by `printer`.
    init(layer: AVCaptureVideoPreviewLayer, printer: CodePrinter) {
        self.layer = layer
        self.printer = printer
    }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                        from connection: AVCaptureConnection) {
        printer.metadataOutput(output, didOutput: metadataObjects, from: connection)
        let now = Date()
        for case let code as AVMetadataMachineReadableCodeObject in metadataObjects {
            guard let shown = layer.transformedMetadataObject(for: code) else { continue }
            let key = "\(code.type.rawValue)\n\(code.stringValue ?? "")"
            let outline = outlines[key]?.layer ?? {
                let made = CALayer()
                made.borderColor = Self.color
                made.borderWidth = 3
                layer.addSublayer(made)
                return made
            }()
            // Just outside the code: the border around it, not over its edge modules.
            outline.frame = shown.bounds.insetBy(dx: -4, dy: -4)
            outlines[key] = (outline, now)
        }
    }

    /// Takes away the outlines of codes not seen for half a second.
    func sweep() {
        queue.async { [self] in
            let now = Date()
            for (key, entry) in outlines where now.timeIntervalSince(entry.seen) > Self.lingering {
                entry.layer.removeFromSuperlayer()
                outlines[key] = nil
            }
        }
    }
}
