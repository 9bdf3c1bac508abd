import Foundation

/// `parec` recording a private PulseAudio daemon's sink monitor (48 kHz stereo float) into a
/// file: what was played into the sink, as the tests' ear. It asks for 10 ms of latency, which
/// makes the null sink render in small blocks, as a sound card plays: left to its default a null
/// sink renders ahead in blocks of up to two seconds and notices a new stream only at the next
/// block, starving it for as long (paplay too).
public final class MonitorRecorder {
    private let file: URL
    private var pid: pid_t = 0
    private var stopped = false

    /// Starts `parec` on `daemon`'s monitor, asking `latencyMilliseconds` of latency, and waits
    /// until it has recorded 100 ms (the idle sink's monitor gives silence); throws when it does
    /// not start within 10 s.
    public init(_ daemon: PulseAudioDaemon, latencyMilliseconds: Int = 10) throws {
        file = Fixtures.folder.appendingPathComponent("sink-\(UUID().uuidString).raw")
        let arguments = ["parec", "--device=\(daemon.monitorName)", "--format=float32le", "--rate=48000", "--channels=2",
                         "--latency-msec=\(latencyMilliseconds)", "--raw", file.path]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = daemon.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // posix_spawn, not Foundation's Process, whose wait for a child's exit can hang here; with
        // no signal blocked or ignored (the test runner's threads block some), so that SIGINT
        // ends the recording.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigaddset(&signals, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        guard posix_spawnp(&pid, "parec", nil, &attributes, argv, envp) == 0 else {
            throw FixtureError(message: "parec could not be started")
        }
        // parec gives no notice of what it wrote: the file's size is polled.
        guard pollUntil(timeout: 10, every: 0.01, { recordedFrames >= 4800 }) else {
            _ = stop()
            throw FixtureError(message: "parec recorded nothing in 10 s")
        }
    }

    /// Waits until the recording holds `seconds` more than it does now, at most `seconds` + 5 s of
    /// the host clock (parec gives no notice of what it wrote: the file's size is polled); whether
    /// it does. The monitor hands on the sink's sound (silence while idle) as it renders it, so
    /// this is `seconds` of the sink's own time.
    public func waitForMore(seconds: Double) async throws -> Bool {
        let target = recordedFrames + Int(seconds * 48_000)
        return try await pollUntil(timeout: seconds + 5, every: 0.01) { recordedFrames >= target }
    }

    deinit { _ = stop() }

    /// How many frames (48 kHz stereo) the recording holds so far: with the host time it is
    /// read at, where the recording stands on the host clock (less parec's latency).
    public var recordedFrames: Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) / 8
    }

    /// Stops recording (SIGINT: parec writes what it has) and returns the samples, interleaved.
    public func stop() -> [Float] {
        guard !stopped else { return [] }
        stopped = true
        kill(pid, SIGINT)
        waitpid(pid, nil, 0)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let data = try? Data(contentsOf: file) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
