import Foundation

/// Runs `body`, a call that blocks (a capture session starting or stopping, device discovery,
/// a recording's file opening), on a thread of its own and waits for it without holding one of
/// the server's threads: no task of the server's event loops or of Swift's cooperative pool
/// waits on a device.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "openav.serve.blocking"
        thread.start()
    }
}
