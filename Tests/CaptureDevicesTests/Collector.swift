import Foundation
import Testing
import OpenCoreMedia
@testable import CaptureDevices
#if canImport(Glibc)
import Glibc
#endif

/// Collects what a device delivers, as records made on the device thread (so that no pixel
/// buffer is kept past the handler, unless a test means to), and lets a test wait until a
/// condition on the records holds.
final class Collector<Record: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var storedRecords: [Record] = []
    private var storedErrors: [CaptureDeviceError] = []
    private let make: @Sendable (CaptureSample) -> Record

    init(_ make: @escaping @Sendable (CaptureSample) -> Record) {
        self.make = make
    }

    /// The handler to give the device.
    var handler: CaptureHandler {
        { [self] event in
            switch event {
            case .success(let sample):
                let record = make(sample)
                condition.withLock {
                    storedRecords.append(record)
                    condition.broadcast()
                }
            case .failure(let error):
                condition.withLock {
                    storedErrors.append(error)
                    condition.broadcast()
                }
            }
        }
    }

    var records: [Record] { condition.withLock { storedRecords } }
    var errors: [CaptureDeviceError] { condition.withLock { storedErrors } }

    /// Waits until `done` holds for the records delivered so far, or `timeout` seconds pass;
    /// returns the records.
    @discardableResult
    func wait(timeout: Double, until done: ([Record]) -> Bool) -> [Record] {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(storedRecords) {
            if !condition.wait(until: limit) { break }
        }
        return storedRecords
    }

    /// Waits until a failure was delivered, or `timeout` seconds pass; returns the failures.
    @discardableResult
    func waitForError(timeout: Double) -> [CaptureDeviceError] {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while storedErrors.isEmpty {
            if !condition.wait(until: limit) { break }
        }
        return storedErrors
    }

    /// Waits for at least `count` records.
    @discardableResult
    func wait(for count: Int, timeout: Double) -> [Record] {
        wait(timeout: timeout) { $0.count >= count }
    }
}

/// CPU seconds the calling thread has used (user + system), from `getrusage(RUSAGE_THREAD)`.
func threadCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Exact whole seconds of a non-negative time (rounded down).
func wholeSeconds(_ time: CMTime) -> Int64 {
    time.value / Int64(time.timescale)
}

/// Host nanoseconds of a time, rounded to nearest.
func nanoseconds(_ time: CMTime) -> Int64 {
    CMTimeConvertScale(time, timescale: 1_000_000_000, method: .roundHalfAwayFromZero).value
}

/// Runs a command and returns its standard output; fails the caller with its standard error.
func run(_ executable: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes while the process runs, so a full pipe cannot block it.
    final class Box: @unchecked Sendable { var data = Data() }
    let errorBox = Box()
    let errorsRead = DispatchSemaphore(value: 0)
    Thread {
        errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
        errorsRead.signal()
    }.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errorsRead.wait()
    let errorData = errorBox.data
    guard process.terminationStatus == 0 else {
        throw CommandError(command: ([executable] + arguments).joined(separator: " "),
                           message: String(decoding: errorData.suffix(2000), as: UTF8.self))
    }
    return data
}

/// Runs a program with standard output and error in one pipe, in `directory` and with extra
/// environment variables; its exit status and output, whatever the status.
func runMerged(_ executable: String, _ arguments: [String], in directory: URL? = nil,
               environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

struct CommandError: Error, CustomStringConvertible {
    var command: String
    var message: String
    var description: String { "\(command) failed: \(message)" }
}

/// All tests that run devices in real time, one at a time, so that they do not disturb each
/// other's timing on a small machine.
@Suite(.serialized, .timeLimit(.minutes(10))) enum RealTimeDeviceTests {}
