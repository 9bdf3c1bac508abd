import CPulseAudio

/// A libpulse context on its own main loop, driven by its owner's thread (libpulse's
/// non-threaded `pa_mainloop`): every wait has a deadline, so a missing or hung sound server
/// costs a timeout, never a hang.
///
/// Used by one thread at a time: made by discovery or by `PulseAudioMicrophone.start` on the
/// caller's thread, then handed to the microphone's device thread. Never spawns a server.
package final class PulseAudioConnection {
    /// The `pa_mainloop`.
    package let mainloop: OpaquePointer
    /// The `pa_context`, ready once `init` returns.
    package let context: OpaquePointer

    /// Connects to `server` (nil: libpulse's default, `PULSE_SERVER` or the user's session
    /// server) within `timeout` nanoseconds.
    package init(server: String?, clientName: String, timeout: UInt64) throws(SoundServerError) {
        guard let mainloop = pa_mainloop_new() else { throw SoundServerError(.failed, "pa_mainloop_new failed") }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), clientName) else {
            pa_mainloop_free(mainloop)
            throw SoundServerError(.failed, "pa_context_new failed")
        }
        self.mainloop = mainloop
        self.context = context
        let deadline = HostClock.now + timeout
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0,
              iterate(untilNanoseconds: deadline, {
                  let state = pa_context_get_state(context)
                  return state == PA_CONTEXT_READY || PA_CONTEXT_IS_GOOD(state) == 0
              }),
              pa_context_get_state(context) == PA_CONTEXT_READY
        else {
            throw SoundServerError(.unavailable, "no PulseAudio server at \(server ?? "the default address"): \(errorText)")
        }
    }

    deinit {
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_mainloop_free(mainloop)
    }

    /// Whether the server connection is still up.
    package var isGood: Bool { pa_context_get_state(context) == PA_CONTEXT_READY }

    /// libpulse's text for the context's last error.
    package var errorText: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Runs the loop for at most `timeout` nanoseconds, handling what arrives; false when the
    /// loop failed.
    package func iterate(timeout: UInt64) -> Bool {
        pa_mainloop_prepare(mainloop, Int32(clamping: timeout / 1000)) >= 0
            && pa_mainloop_poll(mainloop) >= 0
            && pa_mainloop_dispatch(mainloop) >= 0
    }

    /// Runs the loop until `done` holds or the host clock reaches `deadline`; whether `done`
    /// holds.
    package func iterate(untilNanoseconds deadline: UInt64, _ done: () -> Bool) -> Bool {
        while !done() {
            let now = HostClock.now
            guard now < deadline, iterate(timeout: deadline - now) else { return done() }
        }
        return true
    }

    /// Waits until `stream` (a `pa_stream` being connected) is ready or failed, at most until
    /// `deadline`; whether it is ready.
    package func waitUntilReady(_ stream: OpaquePointer, untilNanoseconds deadline: UInt64) -> Bool {
        iterate(untilNanoseconds: deadline, {
            let state = pa_stream_get_state(stream)
            return state == PA_STREAM_READY || PA_STREAM_IS_GOOD(state) == 0
        }) && pa_stream_get_state(stream) == PA_STREAM_READY
    }

    /// Waits for an operation to complete within `deadline`; whether it did. Releases it.
    package func wait(for operation: OpaquePointer?, untilNanoseconds deadline: UInt64) -> Bool {
        guard let operation else { return false }
        defer { pa_operation_unref(operation) }
        return iterate(untilNanoseconds: deadline) { pa_operation_get_state(operation) != PA_OPERATION_RUNNING }
            && pa_operation_get_state(operation) == PA_OPERATION_DONE
    }
}
