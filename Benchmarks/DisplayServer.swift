#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private Xvfb X server with a 1920x1080 screen, for the window workload: every player's
/// window goes to it (`DISPLAY` is set in this process while it runs, so every child uses it).
/// There is no GPU behind it: our windows and mpv's x11 output put their pixels through MIT-SHM,
/// ffplay's SDL renderer goes through Mesa's software OpenGL (llvmpipe).
final class DisplayServer {
    let display: String
    private var server: pid_t = 0

    /// Starts the server on the first free display number from 70; throws when it does not
    /// accept connections in 10 s.
    init() throws {
        let number = (70..<200).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 70
        display = ":\(number)"
        server = try ChildProcess.spawn(["Xvfb", display, "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"],
                                        output: NSTemporaryDirectory() + "openav-bench-xvfb-\(getpid()).log")
        let deadline = ChildProcess.now() + 10
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            guard ChildProcess.now() < deadline else {
                stop()
                throw Workers.Failure("Xvfb \(display) did not start")
            }
            usleep(50_000)
        }
        setenv("DISPLAY", display, 1)
    }

    deinit { stop() }

    /// Stops the server and forgets it.
    func stop() {
        if server != 0 {
            kill(server, SIGTERM)
            waitpid(server, nil, 0)
            server = 0
        }
        unsetenv("DISPLAY")
    }
}
