#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private PulseAudio daemon with a null sink, for the playback workloads: both players play
/// into the same sink, and nothing is heard. A `parec` reads the sink's monitor at 10 ms of
/// latency all the while, as a sound card plays: a null sink left to its default renders ahead
/// in blocks of up to 2 s and starves a new stream until its next block, whichever player it
/// is. `PULSE_SERVER` is set in this process while it runs, so every child plays to it.
final class SoundServer {
    let sink = "bench"
    private let folder: String
    private var daemon: pid_t = 0
    private var reader: pid_t = 0

    /// Starts the daemon and the monitor reader; throws when the daemon does not answer in 10 s.
    init() throws {
        folder = NSTemporaryDirectory() + "openav-bench-pulse-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        daemon = try ChildProcess.spawn([
            "pulseaudio", "--daemonize=no", "--system=false", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
            "--realtime=no", "--high-priority=no", "--log-target=stderr",
            "--load=module-null-sink sink_name=\(sink) rate=48000 channels=2",
            "--load=module-native-protocol-unix socket=\(folder)/native auth-anonymous=1",
        ], output: folder + "/pulseaudio.log", environment: ["PULSE_RUNTIME_PATH=\(folder)", "HOME=\(folder)/home"])
        setenv("PULSE_SERVER", "unix:\(folder)/native", 1)
        let deadline = ChildProcess.now() + 10
        while (try? ChildProcess.capture(["pactl", "info"])) == nil {
            guard ChildProcess.now() < deadline else {
                stop()
                throw Workers.Failure("pulseaudio did not start; see \(folder)/pulseaudio.log")
            }
            usleep(50_000)
        }
        reader = try ChildProcess.spawn(["parec", "--device=\(sink).monitor", "--latency-msec=10", "--raw", "/dev/null"], output: "/dev/null")
    }

    deinit { stop() }

    /// Stops the reader and the daemon, and forgets the server.
    func stop() {
        for pid in [reader, daemon] where pid != 0 {
            kill(pid, SIGTERM)
            waitpid(pid, nil, 0)
        }
        (reader, daemon) = (0, 0)
        unsetenv("PULSE_SERVER")
        try? FileManager.default.removeItem(atPath: folder)
    }
}
