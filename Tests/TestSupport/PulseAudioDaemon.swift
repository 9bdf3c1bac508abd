import Foundation

/// A private PulseAudio daemon for one test: a null sink (whose monitor source records what is
/// played into it), served on its own socket in a fresh folder, as the current user (root
/// included). Nothing of the machine's own sound setup is used or changed; `stop()` (or
/// deinit) kills the daemon and removes the folder.
///
/// Starting throws, with the daemon's log, when `pulseaudio` cannot run: tests that need it fail.
public final class PulseAudioDaemon: @unchecked Sendable {
    /// The server address for libpulse (`unix:<socket>`).
    public let server: String
    /// The null sink's name.
    public let sinkName = "openav_test_sink"
    /// The null sink's description; its monitor's is "Monitor of " followed by this.
    public let sinkDescription = "OpenAV-Test-Sink"
    /// The null sink's sample rate.
    public let sampleRate: Int
    /// The null sink's channel count.
    public let channelCount: Int
    /// The name of the sink's monitor source.
    public var monitorName: String { sinkName + ".monitor" }

    private let folder: URL
    private var arguments: [String] = []
    private var log: URL
    private var pid: pid_t = 0
    private var exited = false
    private let lock = NSLock()
    private var stopped = false

    /// Starts a daemon with a null sink of `sampleRate` Hz and `channelCount` channels and waits
    /// (at most 10 s) until it says it serves.
    public init(sampleRate: Int = 48_000, channelCount: Int = 2) throws {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openav-pulse-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        let socket = runtime.appendingPathComponent("native").path
        server = "unix:" + socket
        let log = folder.appendingPathComponent("pulseaudio.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        arguments = [
            "pulseaudio", "--daemonize=no", "--system=false", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
            "--realtime=no", "--high-priority=no", "--log-target=stderr",
            "--load=module-null-sink sink_name=\(sinkName) sink_properties=device.description=\(sinkDescription) "
                + "rate=\(sampleRate) channels=\(channelCount)",
            "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ]
        self.log = log
        try spawn()
    }

    /// Starts the daemon process and waits (at most 10 s) until it says it serves.
    private func spawn() throws {
        // posix_spawn, not Foundation's Process: pulseaudio closes the descriptors it inherits,
        // which Process takes for the child's exit (and then blocks its monitor thread in wait4).
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The daemon says when it serves by systemd's readiness protocol: "READY=1" sent to the
        // datagram socket NOTIFY_SOCKET names (libsystemd's sd_notify), the event waited for.
        let notifyPath = folder.appendingPathComponent("notify").path
        let notify = try Self.readinessSocket(at: notifyPath)
        defer { close(notify) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.merging(["NOTIFY_SOCKET": notifyPath]) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, "pulseaudio", &actions, nil, argv, envp)
        guard status == 0 else {
            throw FixtureError(message: "pulseaudio could not be started: \(String(cString: strerror(status)))")
        }
        lock.withLock {
            self.pid = pid
            exited = false
        }
        let deadline = Date().addingTimeInterval(10)
        var ready = false
        while !ready, waitUntilReadable(notify, timeout: deadline.timeIntervalSinceNow) {
            var message = [UInt8](repeating: 0, count: 512)
            let count = recv(notify, &message, message.count, 0)
            ready = count > 0 && String(decoding: message.prefix(count), as: UTF8.self).split(separator: "\n").contains("READY=1")
        }
        guard ready else {
            stop()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw FixtureError(message: "pulseaudio did not start within 10 s: \(text.suffix(2000))")
        }
    }

    /// A datagram socket bound at `path`, on which the daemon says it is ready.
    private static func readinessSocket(at path: String) throws -> Int32 {
        unlink(path) // a restart binds it again
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError(message: "no socket for pulseaudio's readiness: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw FixtureError(message: "the readiness socket's path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw FixtureError(message: "the readiness socket could not be bound: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    deinit { stop() }

    /// Whether the daemon still runs (reaps it once it has exited).
    private var isRunning: Bool {
        lock.withLock {
            if !exited, pid != 0, waitpid(pid, nil, WNOHANG) != 0 { exited = true }
            return pid != 0 && !exited
        }
    }

    /// The environment of the daemon and its clients: a private runtime folder and home, the
    /// server's address.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("run").path
        environment["PULSE_RUNTIME_PATH"] = folder.appendingPathComponent("run").path
        environment["HOME"] = folder.appendingPathComponent("home").path
        environment["PULSE_SERVER"] = server
        return environment
    }

    /// Runs `pactl` against the daemon; its output.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> String {
        let pactl = Process()
        pactl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pactl.arguments = ["pactl"] + arguments
        pactl.environment = environment
        let output = Pipe()
        pactl.standardOutput = output
        pactl.standardError = FileHandle.nullDevice
        try pactl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        pactl.waitUntilExit()
        guard pactl.terminationStatus == 0 else {
            throw FixtureError(message: "pactl \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `paplay` playing a file into the null sink; wait for it with `waitUntilExit()`.
    public func play(_ file: URL) throws -> Process {
        let paplay = Process()
        paplay.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        paplay.arguments = ["paplay", "--device=\(sinkName)", file.path]
        paplay.environment = environment
        paplay.standardInput = FileHandle.nullDevice
        try paplay.run()
        return paplay
    }

    /// The test tone's frequency, in hertz.
    public static let toneFrequency = 1000
    /// The test tone's peak level, in dBFS; its RMS level is 3.01 dB lower.
    public static let tonePeakLevel = -12.0
    /// The test tone's length, in seconds.
    public static let toneSeconds = 2

    /// A WAV of the test tone at the sink's rate and channel count, made by ffmpeg: a sine of
    /// `toneFrequency` Hz peaking at `tonePeakLevel` dBFS, `toneSeconds` long, 16-bit.
    public func toneFile() throws -> URL {
        let amplitude = pow(10, Self.tonePeakLevel / 20)
        let channel = "\(amplitude)*sin(2*PI*\(Self.toneFrequency)*t)"
        return try Fixtures.make("tone-\(sampleRate)-\(channelCount).wav", [
            "-f", "lavfi", "-i",
            "aevalsrc=\(Array(repeating: channel, count: channelCount).joined(separator: "|")):s=\(sampleRate):d=\(Self.toneSeconds)",
            "-c:a", "pcm_s16le",
        ])
    }

    /// Kills the daemon (SIGKILL: as a crashed server goes) and waits for it, keeping its folder,
    /// so that `restart()` serves on the same socket again.
    public func kill() {
        if isRunning {
            Foundation.kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            lock.withLock { exited = true }
        }
    }

    /// Starts the daemon again after `kill()`, on the same socket, with its null sink only
    /// (modules loaded since are gone, as after a crash).
    public func restart() throws {
        kill()
        try spawn()
    }

    /// Kills the daemon (SIGKILL: as a crashed server goes), waits for it and removes its
    /// folder. Stopping twice does nothing.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        kill()
        try? FileManager.default.removeItem(at: folder)
    }
}
