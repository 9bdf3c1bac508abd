#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `openav-bench`: each workload through OpenAVFoundation and through ffmpeg, alternating
/// A B A B, with the medians and the ratios ours/peer. See BENCHMARKS.md.
@main
struct OpenAVBench {
    static let usage = """
        usage: openav-bench [--runs N] [--quick] [--only NAME[,NAME…]] [--cache DIR]
          --runs N     runs of each side, alternating (default 3; 1 with --quick)
          --quick      small inputs and one run, for a smoke run (about a minute)
          --only NAMES workloads to run: decode, encode, thumbnails, remux, export, trim, crossfade, probe, capture, play, seek, window,
                       export-640, audio-decode, resample, aac-encode, engine-play, engine-mix, codes, scan
          --cache DIR  where the inputs are made once and kept (default .build-bench-cache)
          --instructions  also count each side's instructions once under valgrind's callgrind
                       (workloads that do not run in real time), for the ratios where seconds are noise
        """

    /// Holds a worker's outcome across the semaphore wait.
    final class Outcome: @unchecked Sendable {
        var error: Error?
    }

    // A synchronous main that blocks on a semaphore while the worker's task runs: an `async`
    // main parks the main thread in libdispatch's sigsuspend loop, which valgrind (used to
    // profile the workers) cannot run.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--worker", arguments.count >= 2 {
            let (name, rest) = (arguments[1], Array(arguments.dropFirst(2)))
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            Task.detached {
                do {
                    try await Workers.run(name, rest)
                } catch {
                    outcome.error = error
                }
                done.signal()
            }
            done.wait()
            if let error = outcome.error {
                FileHandle.standardError.write("worker \(name) failed: \(error)\n".data(using: .utf8)!)
                exit(1)
            }
            exit(0)
        }
        var runs: Int?, quick = false, only: Set<String>?, cache = ".build-bench-cache", instructions = false
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--runs":
                guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail(usage) }
                runs = value
                arguments.removeFirst()
            case "--quick": quick = true
            case "--instructions": instructions = true
            case "--only":
                guard let value = arguments.first else { fail(usage) }
                only = Set(value.split(separator: ",").map(String.init))
                arguments.removeFirst()
            case "--cache":
                guard let value = arguments.first else { fail(usage) }
                cache = value
                arguments.removeFirst()
            case "-h", "--help":
                print(usage)
                exit(0)
            default: fail("unknown argument \(argument)\n\(usage)")
            }
        }
        do {
            try runBenchmark(runs: runs ?? (quick ? 1 : 3), quick: quick, only: only, cache: cache, countsInstructions: instructions)
        } catch {
            fail("\(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
        exit(2)
    }

    static func runBenchmark(runs: Int, quick: Bool, only: Set<String>?, cache: String, countsInstructions: Bool) throws {
        let began = ChildProcess.now()
        let cacheURL = URL(fileURLWithPath: cache, isDirectory: true).standardizedFileURL
        let inputs = Inputs(cache: cacheURL, scale: Scale(quick: quick))
        let bench = ChildProcess.selfPath
        let known = ["decode", "encode", "thumbnails", "remux", "export", "trim", "crossfade", "probe", "capture", "play", "seek", "window", "display-layer",
                     "export-640", "audio-decode", "resample", "aac-encode", "engine-play", "engine-mix", "codes", "scan"]
        if let only, let unknown = only.first(where: { !known.contains($0) }) { fail("no workload \(unknown)\n\(usage)") }
        var workloads = inputs.workloads(bench: bench)
        if only?.contains("capture") ?? true { workloads.append(try inputs.captureWorkload(bench: bench)) }
        workloads += inputs.playbackWorkloads(bench: bench)
        workloads += inputs.audioWorkloads(bench: bench)
        if only.map({ !$0.isDisjoint(with: ["codes", "scan"]) }) ?? true { workloads += inputs.codeWorkloads(bench: bench) }
        if let only { workloads = workloads.filter { only.contains($0.name) } }

        print("openav-bench: \(runs) run\(runs == 1 ? "" : "s") per side, alternating\(quick ? ", quick inputs" : "")")
        print(Machine.current.summary)
        print("inputs in \(cacheURL.path)")
        try inputs.prepare(needing: Set(workloads.map(\.name)))
        try inputs.prepareAudio(needing: Set(workloads.map(\.name)))
        try inputs.prepareCodes(needing: Set(workloads.map(\.name)))

        var results: [WorkloadResult] = []
        for workload in workloads {
            print("\n\(workload.name): \(workload.title)")
            var costs = [[Cost]](repeating: [], count: workload.sides.count)
            var metrics = [[[String: Double]]](repeating: [], count: workload.sides.count)
            var notes: [String] = []
            let soundServer = workload.playsSound ? try SoundServer() : nil
            defer { soundServer?.stop() }
            let displayServer = workload.showsVideo ? try DisplayServer() : nil
            defer { displayServer?.stop() }
            // Warm-up: one untimed pass of each side (page cache, dynamic loader), then A B A B.
            for pass in 0...runs {
                for (index, side) in workload.sides.enumerated() {
                    try clearScratch(inputs.scratch)
                    var cost = Cost()
                    let log = inputs.logs.appendingPathComponent("\(workload.name)-\(index).log").path
                    for command in side.commands { cost = cost + (try ChildProcess.run(command, log: log)) }
                    if pass == 0 {
                        if side.isOurs, let said = try? String(contentsOfFile: log, encoding: .utf8) {
                            notes.append("ours (warm-up run): " + said.trimmingCharacters(in: .whitespacesAndNewlines))
                        }
                        if workload.name == "encode" { notes.append(contentsOf: outputSizes(inputs.scratch)) }
                        continue
                    }
                    costs[index].append(cost)
                    var line = String(format: "  run %d %-14@ wall %7.2f s  cpu %7.2f s  rss %6.0f MB", pass, side.name,
                                      cost.wall, cost.cpu, Double(cost.peakRSSKiB) / 1024)
                    if let measure = side.measure {
                        var measured = measure((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
                        if let seconds = measured["file-seconds"], seconds > 0 { measured["cpu-per-second"] = cost.cpu / seconds }
                        metrics[index].append(measured)
                        line += "  " + measured.sorted { $0.key < $1.key }.map { String(format: "%@ %.3g", $0.key, $0.value) }
                            .joined(separator: ", ")
                    }
                    print(line)
                    fflush(nil) // progress shows as it happens, also when stdout is a file
                }
            }
            // Instructions: once a side, outside the timing (callgrind runs about 50 times slower).
            var instructions: [Double?] = workload.sides.map { _ in nil }
            if countsInstructions && workload.countsInstructions {
                for (index, side) in workload.sides.enumerated() {
                    try clearScratch(inputs.scratch)
                    let log = inputs.logs.appendingPathComponent("\(workload.name)-\(index)-callgrind.log").path
                    let counted = try side.commands.reduce(0.0) { $0 + (try ChildProcess.instructions($1, log: log, scratch: inputs.cache)) }
                    instructions[index] = counted
                    print(String(format: "  callgrind %-14@ %.4g instructions", side.name, counted))
                    fflush(nil)
                }
            }
            results.append(WorkloadResult(workload: workload, costs: costs, metrics: metrics, notes: notes, instructions: instructions))
        }
        try? clearScratch(inputs.scratch)

        print("\n" + Report.table(results, runs: runs, withInstructions: countsInstructions))
        for result in results where result.workload.measurements != nil { print("\n" + Report.measurementsTable(result)) }
        print("")
        print(Report.settings(results))
        print(String(format: "total time of this invocation: %.0f s", ChildProcess.now() - began))
    }

    /// Empties the scratch directory (outputs of the previous side), outside the timing.
    static func clearScratch(_ scratch: URL) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: scratch.path) {
            try manager.removeItem(at: scratch.appendingPathComponent(name))
        }
    }

    /// The sizes of the encode workload's two files, to show the settings matched.
    static func outputSizes(_ scratch: URL) -> [String] {
        ["ours.mp4", "ffmpeg.mp4"].compactMap { name in
            let path = scratch.appendingPathComponent(name).path
            guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else { return nil }
            return "\(name): \(size) bytes"
        }
    }
}

/// The measured runs of one workload.
struct WorkloadResult {
    let workload: Workload
    /// Per side, the cost of each timed run.
    let costs: [[Cost]]
    /// Per side, what each timed run measured besides its cost (`Side.measure`).
    let metrics: [[[String: Double]]]
    var notes: [String]
    /// Per side, the instructions callgrind counted (nil: not counted).
    var instructions: [Double?]
}

/// Cores, memory and CPU model.
struct Machine {
    let cores: Int
    let memoryGiB: Double
    let model: String

    static var current: Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return Machine(cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                       memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, model: model)
    }

    var summary: String {
        let ffmpeg = (try? ChildProcess.capture(["ffmpeg", "-version"]))?.split(separator: "\n").first.map(String.init) ?? "ffmpeg ?"
        return String(format: "machine: %d cores, %.1f GiB, %@; %@", cores, memoryGiB, model, ffmpeg)
    }
}

extension ChildProcess {
    /// The standard output of a short command.
    static func capture(_ argv: [String]) throws -> String {
        let log = NSTemporaryDirectory() + "/openav-bench-\(getpid()).txt"
        defer { unlink(log) }
        _ = try run(argv, log: log)
        return try String(contentsOfFile: log, encoding: .utf8)
    }
}
