/// Why the sound server could not be reached or used: no server, a refused stream, a sink or
/// source that went away. The capture devices turn it into a `CaptureDeviceError`, the player
/// into silence on the host clock.
package struct SoundServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    package enum Reason: String, Hashable, Sendable {
        /// The server cannot play or record this format.
        case unsupportedFormat
        /// The sink or source named is not there (any more).
        case disconnected
        /// No server answers, or it refused the client.
        case unavailable
        /// Any other failure reported by libpulse.
        case failed
    }

    /// The kind of failure.
    package var reason: Reason
    /// What happened, for people: names the server, sink or source and the operation.
    package var message: String

    /// An error of a kind, with a message.
    package init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    package var description: String { "\(reason.rawValue): \(message)" }
}
