#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What one or more child processes cost: wall seconds, CPU seconds (user + system, from the
/// `rusage` that `wait4` returns for each child, which includes the children it waited for)
/// and the largest resident set any of them reached.
struct Cost {
    var wall: Double = 0
    var cpu: Double = 0
    var peakRSSKiB: Int = 0

    /// Sequential runs: times add up, the peak is the largest.
    static func + (a: Cost, b: Cost) -> Cost {
        Cost(wall: a.wall + b.wall, cpu: a.cpu + b.cpu, peakRSSKiB: max(a.peakRSSKiB, b.peakRSSKiB))
    }
}

/// A child process failed: its command and the end of what it printed.
struct ChildFailure: Error, CustomStringConvertible {
    let command: [String]
    let status: Int32
    let output: String
    var description: String {
        "\(command.joined(separator: " ")) exited with status \(status):\n\(output.suffix(4000))"
    }
}

enum ChildProcess {
    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Starts `argv` (looked up in PATH) with stdin from /dev/null, stdout and stderr into
    /// `output`, and `environment` ("NAME=value") over this process's; not waited for.
    static func spawn(_ argv: [String], output: String, environment: [String] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // This process's environment as it is now (`environ`: PULSE_SERVER is set while a sound
        // server runs), less the names `environment` sets.
        var inherited: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            inherited.append(String(cString: variable))
            entry += 1
        }
        let names = Set(environment.map { $0.prefix { $0 != "=" } })
        inherited.removeAll { names.contains($0.prefix { $0 != "=" }) }
        let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = (inherited + environment).map { strdup($0) } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, nil, arguments, variables)
        guard spawned == 0 else {
            throw ChildFailure(command: argv, status: -1, output: "posix_spawnp: \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Runs `argv` (looked up in PATH) with stdin from /dev/null and stdout and stderr into
    /// `log`, waits for it, and returns its cost; throws when it does not exit with status 0.
    static func run(_ argv: [String], log: String) throws -> Cost {
        let start = now()
        let pid = try spawn(argv, output: log)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw ChildFailure(command: argv, status: -1, output: "wait4 failed") }
        }
        let wall = now() - start
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ChildFailure(command: argv, status: status, output: output)
        }
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return Cost(wall: wall, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakRSSKiB: Int(usage.ru_maxrss))
    }

    /// The instructions `argv` executes, counted by valgrind's callgrind (its "Collected" total;
    /// no profile file is written); its output goes to `log`. Throws as `run` does. This
    /// executable runs as a copy without its debug information (`withoutDebugInfo`, made in
    /// `scratch`): valgrind 3.19 cannot read the Swift compiler's DWARF 5 and gives up.
    static func instructions(_ argv: [String], log: String, scratch: URL) throws -> Double {
        var argv = argv
        if argv.first == selfPath { argv[0] = try withoutDebugInfo(in: scratch) }
        _ = try run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv, log: log)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let line = output.split(separator: "\n").last(where: { $0.contains("Collected :") }),
              let count = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw ChildFailure(command: argv, status: -1, output: "callgrind reported no instruction count")
        }
        return count
    }

    /// A copy of this executable without debug information, in `directory`.
    private static func withoutDebugInfo(in directory: URL) throws -> String {
        let copy = directory.appendingPathComponent("openav-bench-without-debug-info").path
        if access(copy, X_OK) != 0 { _ = try run(["objcopy", "--strip-debug", selfPath, copy], log: copy + ".log") }
        return copy
    }

    /// The full path of `command` in PATH, or nil when it is not installed.
    static func which(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { access($0, X_OK) == 0 }
    }

    /// This executable's path.
    static var selfPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }
}
