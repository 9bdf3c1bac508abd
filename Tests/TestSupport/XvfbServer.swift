import CX11
import CXTest
import Foundation

/// A private Xvfb X server for one test: display `:N` (a free number from 90), one
/// screen of the given size at depth 24, no TCP listener. `paint(_:rectangles:)` sets the root
/// window's picture, `setCursor(…)` its cursor; `movePointer(x:y:)` and `setButton(_:down:)`
/// act as a user's mouse would (XTEST); `stop()` (or deinit) kills the server and waits for it.
///
/// Starting throws, with the server's log, when Xvfb cannot run: tests that need it fail.
public final class XvfbServer: @unchecked Sendable {
    /// The display's name (`":90"`).
    public let display: String
    /// The screen's size.
    public let width: Int
    public let height: Int

    private let process = Process()
    /// The server's standard output, on which it writes its display number once it accepts
    /// connections (`-displayfd 1`); kept open while it runs.
    private let ready = Pipe()
    private let log: URL
    private let lock = NSLock()
    private var stopped = false

    /// Starts a server with a `width`×`height` screen and waits (at most 10 s) until it says it
    /// accepts connections.
    public init(width: Int = 640, height: Int = 480) throws {
        self.width = width
        self.height = height
        log = FileManager.default.temporaryDirectory.appendingPathComponent("openav-xvfb-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        display = ":\(Self.freeDisplayNumber())"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["Xvfb", display, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset",
                             "-displayfd", "1"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = ready
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // The number arrives once the server accepts connections; end of file, if it exits first.
        let reader = ready.fileHandleForReading
        let number = waitUntilReadable(reader.fileDescriptor, timeout: 10) ? (try? reader.read(upToCount: 16)) ?? Data() : Data()
        guard String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == display.dropFirst() else {
            stop()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw FixtureError(message: "Xvfb \(display) did not start within 10 s: \(text.suffix(2000))")
        }
    }

    deinit { stop() }

    private static let numberLock = NSLock()
    nonisolated(unsafe) private static var nextNumber = 90

    /// A number no server of this process was given, with neither a lock file nor a socket
    /// (Xvfb itself refuses a number another process took meanwhile).
    private static func freeDisplayNumber() -> Int {
        numberLock.withLock {
            while FileManager.default.fileExists(atPath: "/tmp/.X\(nextNumber)-lock")
                    || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(nextNumber)") {
                nextNumber += 1
            }
            defer { nextNumber += 1 }
            return nextNumber
        }
    }

    /// Whether the server process still runs.
    public var isRunning: Bool { process.isRunning }

    /// The server of a whole test process (a static one, never deinitialized): killed, with its
    /// lock file and socket removed, once the process has exited, so that no Xvfb outlives the
    /// tests. A watcher process does it: killing the server from the process's own exit
    /// handlers would pull it from under a window still open on another thread, whose X
    /// library then ends the process with status 1 ("XIO: fatal IO error").
    public func stopsAtExit() {
        let number = display.dropFirst()
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done; "
            + "kill -9 \(process.processIdentifier); rm -f /tmp/.X\(number)-lock /tmp/.X11-unix/X\(number)"
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", script]
        watcher.standardInput = FileHandle.nullDevice
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try? watcher.run()
    }

    /// Kills the server (SIGKILL: the test process's children may inherit a blocked SIGTERM) and
    /// waits until it has exited; removes its log, lock file and socket.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let number = display.dropFirst()
        for path in [log.path, "/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"] {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// A filled rectangle of the picture: position, size and colour (`0xRRGGBB`).
    public struct Rectangle: Sendable {
        public var x: Int, y: Int, width: Int, height: Int, rgb: UInt32
        /// A rectangle.
        public init(x: Int, y: Int, width: Int, height: Int, rgb: UInt32) {
            (self.x, self.y, self.width, self.height, self.rgb) = (x, y, width, height, rgb)
        }
    }

    /// The screen's `width`×`height` pixels at (`x`, `y`), as ffmpeg's `x11grab` grabs them
    /// (without the pointer), in `pixelFormat` (an ffmpeg pixel format name).
    public func grab(x: Int = 0, y: Int = 0, width: Int, height: Int, pixelFormat: String = "rgb24") throws -> [UInt8] {
        [UInt8](try Fixtures.run("ffmpeg", ["-v", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size", "\(width)x\(height)",
                                            "-i", "\(display)+\(x),\(y)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"]))
    }

    /// Makes the root window's background a picture of colour `background` (`0xRRGGBB`) with
    /// `rectangles` drawn over it, in order, and waits until the server has drawn it.
    public func paint(_ background: UInt32, rectangles: [Rectangle] = []) throws {
        guard let connection = XOpenDisplay(display) else { throw FixtureError(message: "cannot open \(display)") }
        defer { XCloseDisplay(connection) }
        let screen = XDefaultScreen(connection)
        let root = XRootWindow(connection, screen)
        let pixmap = XCreatePixmap(connection, root, UInt32(width), UInt32(height), UInt32(XDefaultDepth(connection, screen)))
        let gc = XCreateGC(connection, pixmap, 0, nil)
        for rectangle in [Rectangle(x: 0, y: 0, width: width, height: height, rgb: background)] + rectangles {
            // Depth 24 TrueColor: the pixel value is the colour itself.
            XSetForeground(connection, gc, UInt(rectangle.rgb))
            XFillRectangle(connection, pixmap, gc, Int32(rectangle.x), Int32(rectangle.y),
                           UInt32(rectangle.width), UInt32(rectangle.height))
        }
        XSetWindowBackgroundPixmap(connection, root, pixmap)
        XClearWindow(connection, root)
        XFreeGC(connection, gc)
        XFreePixmap(connection, pixmap)
        XSync(connection, 0)
    }

    /// Runs `body` with a connection to the server and the root window, then waits until the
    /// server has carried out what it asked.
    private func withConnection(_ body: (OpaquePointer, Window) throws -> Void) throws {
        guard let connection = XOpenDisplay(display) else { throw FixtureError(message: "cannot open \(display)") }
        defer { XCloseDisplay(connection) }
        try body(connection, XRootWindow(connection, XDefaultScreen(connection)))
        XSync(connection, 0)
    }

    /// Makes the root window's cursor a `width`×`height` rectangle, its left half `left` and its
    /// right half `right` (`0xRRGGBB`, opaque), with its hotspot at `hotspot`.
    public func setCursor(width: Int, height: Int, hotspot: (x: Int, y: Int), left: UInt32, right: UInt32) throws {
        try withConnection { connection, root in
            // The source bitmap picks the foreground (left) where set; the mask shows every pixel.
            let bytesPerRow = (width + 7) / 8
            var source = [CChar](repeating: 0, count: bytesPerRow * height)
            for row in 0..<height {
                for column in 0..<width / 2 { source[row * bytesPerRow + column / 8] |= CChar(bitPattern: 1 << UInt8(column % 8)) }
            }
            let mask = [CChar](repeating: -1, count: bytesPerRow * height)
            let sourceMap = XCreateBitmapFromData(connection, root, source, UInt32(width), UInt32(height))
            let maskMap = XCreateBitmapFromData(connection, root, mask, UInt32(width), UInt32(height))
            let colour = { (rgb: UInt32) in
                XColor(pixel: 0, red: UInt16(rgb >> 16 & 0xFF) * 257, green: UInt16(rgb >> 8 & 0xFF) * 257,
                       blue: UInt16(rgb & 0xFF) * 257, flags: CChar(DoRed | DoGreen | DoBlue), pad: 0)
            }
            var foreground = colour(left), background = colour(right)
            let cursor = XCreatePixmapCursor(connection, sourceMap, maskMap, &foreground, &background,
                                             UInt32(hotspot.x), UInt32(hotspot.y))
            XDefineCursor(connection, root, cursor)
            XFreeCursor(connection, cursor)
            XFreePixmap(connection, sourceMap)
            XFreePixmap(connection, maskMap)
        }
    }

    /// Moves the pointer to (`x`, `y`) of the screen.
    public func movePointer(x: Int, y: Int) throws {
        try withConnection { connection, root in
            XWarpPointer(connection, 0, root, 0, 0, 0, 0, Int32(x), Int32(y))
        }
    }

    /// Presses (`down`) or releases pointer button `button` (1: left) through XTEST, as a
    /// user's mouse would; throws when the server lacks XTEST.
    public func setButton(_ button: UInt32, down: Bool) throws {
        try withConnection { connection, _ in
            var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
            guard XTestQueryExtension(connection, &eventBase, &errorBase, &major, &minor) != 0 else {
                throw FixtureError(message: "\(display) has no XTEST extension")
            }
            XTestFakeButtonEvent(connection, button, down ? 1 : 0, 0)
        }
    }
}
