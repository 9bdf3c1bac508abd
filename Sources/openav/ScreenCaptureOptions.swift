import ArgumentParser
import Foundation
import OpenAVFoundation

/// The screen options of `openav record`: which X11 screen, which rectangle of it, at which
/// rate, with or without the cursor (`--screen DISPLAY [--crop X,Y,W,H] [--fps N] [--no-cursor]`).
struct ScreenCaptureOptions: ParsableArguments {
    @Option(help: "Record an X11 screen instead of a camera: its display, such as :0 or :0.1, as `openav devices` lists them.")
    var screen: String?

    @Option(help: "With --screen: the rectangle to record, X,Y,WIDTH,HEIGHT in pixels from the top-left corner (even width and height).")
    var crop: String?

    @Option(help: "With --screen: frames a second, 1 to 120 (default 60).")
    var fps: Int?

    @Flag(help: "With --screen: leave the mouse cursor out of the picture.")
    var noCursor = false

    /// A parsed `--crop`.
    var cropRect: CGRect? {
        guard let crop else { return nil }
        let numbers = crop.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
              x >= 0, y >= 0, width > 0, height > 0 else { return nil }
        return CGRect(x: x, y: y, width: width, height: height)
    }

    func validate() throws {
        guard screen != nil || (crop == nil && fps == nil && !noCursor) else {
            throw ValidationError("--crop, --fps and --no-cursor go with --screen")
        }
        if let screen, screen.isEmpty { throw ValidationError("--screen needs a display, such as :0") }
        if crop != nil {
            guard let rect = cropRect else { throw ValidationError("--crop must be X,Y,WIDTH,HEIGHT, for example 0,0,1280,720") }
            guard Int(rect.width) % 2 == 0, Int(rect.height) % 2 == 0 else {
                throw ValidationError("--crop's width and height must be even (H.264 and HEVC code 2x2 blocks of colour)")
            }
        }
        if let fps, !(1...120).contains(fps) { throw ValidationError("--fps must be between 1 and 120") }
    }

    /// Adds an input for `--screen`'s display to `session`, with the crop, rate and cursor asked
    /// for. The display becomes this process's `DISPLAY`, which `AVCaptureScreenInput` reads.
    func addScreen(to session: AVCaptureSession) throws {
        guard let screen else { return }
        setenv("DISPLAY", screen, 1)
        guard let input = AVCaptureScreenInput(displayID: CGMainDisplayID()) else {
            throw CommandFailure("cannot open the X11 display \(screen); `openav devices` lists the screens")
        }
        if let rect = cropRect {
            let size = input.ports.first?.formatDescription.map(CMVideoFormatDescriptionGetDimensions)
            if let size, rect.maxX > CGFloat(size.width) || rect.maxY > CGFloat(size.height) {
                throw CommandFailure("--crop \(crop ?? "") does not fit on the \(size.width)x\(size.height) screen \(screen)")
            }
            input.cropRect = rect
        }
        if let fps { input.minFrameDuration = CMTime(value: 1, timescale: Int32(fps)) }
        input.capturesCursor = !noCursor
        guard session.canAddInput(input) else { throw CommandFailure("cannot record the screen \(screen)") }
        session.addInput(input)
    }

    /// The screens of `$DISPLAY`: its default screen (display ID 0, named as `$DISPLAY`), then
    /// the others, 1, 2, … (named after the display with `.1`, `.2`, …) while they exist, with
    /// their sizes.
    static func screens() -> [(display: String, displayID: CGDirectDisplayID, width: Int32, height: Int32)] {
        guard let name = ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else { return [] }
        // "host:0.1" is screen 1 of "host:0", the default screen there.
        var base = name, defaultScreen: CGDirectDisplayID = 0
        if let colon = name.lastIndex(of: ":"), let dot = name[colon...].lastIndex(of: "."),
           let number = CGDirectDisplayID(name[name.index(after: dot)...]) {
            base = String(name[..<dot])
            defaultScreen = number
        }
        var screens: [(String, CGDirectDisplayID, Int32, Int32)] = []
        for displayID in CGDirectDisplayID(0)..<16 where displayID == 0 || displayID != defaultScreen {
            guard let input = AVCaptureScreenInput(displayID: displayID),
                  let size = input.ports.first?.formatDescription.map(CMVideoFormatDescriptionGetDimensions) else { break }
            screens.append((displayID == 0 ? name : "\(base).\(displayID)", displayID, size.width, size.height))
        }
        return screens
    }
}
