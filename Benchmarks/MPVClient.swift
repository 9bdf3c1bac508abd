#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An `mpv` child process driven over its JSON IPC socket (`--input-ipc-server`): commands as
/// JSON lines out, replies and events as JSON lines in.
final class MPVClient {
    private let pid: pid_t
    private let fd: Int32
    private var pending = [UInt8]()

    /// Starts `mpv arguments…` and connects to `socket` once it is there; then waits until the
    /// file is loaded (its `duration` can be read). Throws after 10 s.
    init(arguments: [String], socket: String) throws {
        unlink(socket)
        let child = try ChildProcess.spawn(["mpv"] + arguments, output: "/dev/null")
        pid = child
        fd = socket.withCString { path -> Int32 in
            let deadline = ChildProcess.now() + 10
            while ChildProcess.now() < deadline {
                let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { _ = strncpy($0.baseAddress!.assumingMemoryBound(to: CChar.self), path, $0.count - 1) }
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                if connected == 0 { return fd }
                close(fd)
                usleep(10_000)
            }
            return -1
        }
        guard fd >= 0 else {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            throw Workers.Failure("mpv's IPC socket did not appear in 10 s")
        }
        unlink(socket)
        let deadline = ChildProcess.now() + 10
        while true {
            try send(#"{"command":["get_property","duration"],"request_id":1}"#)
            if try line(containing: #""request_id":1"#).contains(#""error":"success""#) { break }
            guard ChildProcess.now() < deadline else { throw Workers.Failure("mpv did not load the file in 10 s") }
            usleep(10_000)
        }
    }

    /// Sends one JSON command.
    func send(_ json: String) throws {
        let bytes = Array((json + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw Workers.Failure("mpv's IPC socket closed") }
    }

    /// Reads lines until an event named `name`; throws after 10 s or when mpv goes away.
    func wait(forEvent name: String) throws {
        _ = try line(containing: #""event":"\#(name)""#)
    }

    /// The next line that contains `text`, skipping the others.
    private func line(containing text: String) throws -> String {
        let deadline = ChildProcess.now() + 10
        while true {
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                if line.contains(text) { return line }
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, (deadline - ChildProcess.now()) * 1000))
            guard left > 0, poll(&poller, 1, left) > 0 else { throw Workers.Failure("mpv sent no \(text) in 10 s") }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw Workers.Failure("mpv's IPC socket closed") }
            pending += buffer[..<count]
        }
    }

    /// Tells mpv to quit and waits for it (killing it after 5 s).
    func quit() {
        try? send(#"{"command":["quit"]}"#)
        close(fd)
        let deadline = ChildProcess.now() + 5
        while waitpid(pid, nil, WNOHANG) == 0 {
            guard ChildProcess.now() < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
                return
            }
            usleep(10_000)
        }
    }
}
