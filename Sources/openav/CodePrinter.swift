import Dispatch
import Foundation
import OpenAVFoundation

/// Prints each code the first time it is seen (by type and text); signals `done` once `limit`
/// codes were printed.
final class CodePrinter: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let json: Bool
    private let limit: Int?
    private let lock = NSLock()
    /// Used on the delegate queue only.
    private var seen: Set<String> = []
    private var printedCount = 0

    /// How many codes were printed.
    var printed: Int { lock.withLock { printedCount } }

    init(json: Bool, limit: Int?) {
        self.json = json
        self.limit = limit
    }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
                        from connection: AVCaptureConnection) {
        for case let code as AVMetadataMachineReadableCodeObject in metadataObjects {
            let text = code.stringValue ?? ""
            guard printed < limit ?? .max, seen.insert("\(code.type.rawValue)\n\(text)").inserted else { continue }
            // Unbuffered: a script reading the pipe sees each code as it is read.
            FileHandle.standardOutput.write(Data((json ? jsonLine(code, text) : plainLine(code, text)).utf8 + [0x0A]))
            let count = lock.withLock {
                printedCount += 1
                return printedCount
            }
            if count == limit { done.signal() }
        }
    }

    private func name(_ type: AVMetadataObject.ObjectType) -> String {
        Scan.typeNames.first { $0.type == type }?.name ?? type.rawValue
    }

    private func plainLine(_ code: AVMetadataMachineReadableCodeObject, _ text: String) -> String {
        let bounds = code.bounds
        return String(format: "%@  %@  at %.3f s  (%.3f, %.3f  %.3f x %.3f)", name(code.type), text, code.time.seconds,
                      bounds.minX, bounds.minY, bounds.width, bounds.height)
    }

    private func jsonLine(_ code: AVMetadataMachineReadableCodeObject, _ text: String) -> String {
        let bounds = code.bounds
        let object: [String: Any] = [
            "type": name(code.type), "string": text, "time": code.time.seconds,
            "bounds": [bounds.minX, bounds.minY, bounds.width, bounds.height].map(Double.init),
            "corners": code.corners.map { [Double($0.x), Double($0.y)] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
