import ArgumentParser
import Dispatch
import Foundation
import OpenAVFoundation

/// `openav scan [--video DEVICE|FILE] [--types qr,ean13] [--json] [--count N] [--duration S]`:
/// reads barcodes from a camera (or a File Camera playing a picture or movie) with
/// `AVCaptureMetadataOutput`, and prints each code once, as it is first seen.
struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read barcodes and QR codes from a camera, printing each once as it is first seen.",
        discussion: """
            Reads until Ctrl-C, --count codes or --duration seconds. A line a code: its type, its text, the time \
            of the frame it was seen in and its place in the picture (0 to 1 across and down); with --json, one \
            JSON object a line: {"type": "qr", "string": …, "time": seconds, "bounds": [x, y, width, height], \
            "corners": [[x, y], …]}. --video also takes a movie or image file, which a File Camera plays.
            """
    )

    @OptionGroup var camera: VideoCaptureOptions

    @Option(help: "The code types to read, separated by commas: \(Self.typeNames.map(\.name).joined(separator: ", ")) (default: all).")
    var types: String?

    @Flag(help: "Print one JSON object a line.")
    var json = false

    @Option(help: "Stop after this many different codes.")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    /// The types by their command-line names.
    static let typeNames: [(name: String, type: AVMetadataObject.ObjectType)] = [
        ("qr", .qr), ("microqr", .microQR), ("aztec", .aztec), ("datamatrix", .dataMatrix), ("pdf417", .pdf417),
        ("code39", .code39), ("code39mod43", .code39Mod43), ("code93", .code93), ("code128", .code128),
        ("ean8", .ean8), ("ean13", .ean13), ("upce", .upce), ("i2of5", .interleaved2of5), ("itf14", .itf14),
        ("codabar", .codabar), ("gs1databar", .gs1DataBar), ("gs1databarexpanded", .gs1DataBarExpanded),
    ]

    func validate() throws {
        if let types {
            for name in types.split(separator: ",") where !Self.typeNames.contains(where: { $0.name == name.lowercased() }) {
                throw ValidationError("unknown code type \(name); one of \(Self.typeNames.map(\.name).joined(separator: ", "))")
            }
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be above 0") }
    }

    func run() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        let device = try camera.addCamera(to: session)
        let output = AVCaptureMetadataOutput()
        guard session.canAddOutput(output) else { throw CommandFailure("cannot read codes from \(device.localizedName)") }
        session.addOutput(output)
        let wanted = types.map { names in
            names.split(separator: ",").compactMap { name in Self.typeNames.first { $0.name == name.lowercased() }?.type }
        } ?? Self.typeNames.map(\.type)
        output.metadataObjectTypes = wanted.filter(output.availableMetadataObjectTypes.contains)
        let printer = CodePrinter(json: json, limit: count)
        output.setMetadataObjectsDelegate(printer, queue: DispatchQueue(label: "openav.scan"))
        session.commitConfiguration()

        let startError = StartErrorWatcher(session)
        session.startRunning()
        guard session.isRunning else {
            throw CommandFailure("cannot start \(device.localizedName): \(startError.error?.failureText ?? "unknown error")")
        }
        defer { session.stopRunning() }
        let interrupt = InterruptHandler { printer.done.signal() }
        defer { interrupt.cancel() }
        if !json { FileHandle.standardError.write(Data("Reading codes from \(device.localizedName)…\n".utf8)) }
        _ = printer.done.wait(timeout: duration.map { .now() + $0 } ?? .distantFuture)
        if let count, printer.printed < count {
            throw CommandFailure("read \(printer.printed) of \(count) codes")
        }
    }
}
