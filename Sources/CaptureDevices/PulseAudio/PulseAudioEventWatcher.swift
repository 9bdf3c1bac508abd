import CPulseAudio
import Foundation
import HostSystem

/// Watches a PulseAudio server on a thread of its own: sources appearing and disappearing
/// (PulseAudio's subscribe events), the server going away and coming back (the connection
/// failing; reconnecting every 100 ms until it answers). A server that never answered is
/// looked for every second and reports nothing until it does. `AVAudioSession` makes its route
/// change and interruption notifications from these.
package final class PulseAudioEventWatcher: @unchecked Sendable {
    /// What happened.
    package enum Event: Sendable, Equatable {
        /// A source appeared.
        case sourceAdded
        /// A source disappeared.
        case sourceRemoved
        /// The server stopped answering.
        case serverLost
        /// The server answers again after `serverLost`.
        case serverBack
    }

    private let server: String?
    private let handler: @Sendable (Event) -> Void
    private let stopRequested = Locked(false)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// A watcher of `server` that calls `handler` on its thread for every event.
    package init(server: String?, handler: @escaping @Sendable (Event) -> Void) {
        self.server = server
        self.handler = handler
    }

    /// Starts the thread (named `name`); it connects first, so the server answering at start
    /// (or not) is no event.
    package func start(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Stops the thread and waits for it.
    package func stop() {
        guard thread != nil else { return }
        stopRequested.withLock { $0 = true }
        finished.wait()
        thread = nil
    }

    private var isStopRequested: Bool { stopRequested.withLock { $0 } }

    private func run() {
        defer { finished.signal() }
        var wasLost = false
        var connectedOnce = false
        while !isStopRequested {
            guard let connection = try? PulseAudioConnection(server: server, clientName: "OpenAVFoundation session", timeout: 500_000_000) else {
                // A server that never answered is no interruption (a machine without one); it
                // is looked for again every second, a lost one every 100 ms.
                if connectedOnce, !wasLost {
                    wasLost = true
                    handler(.serverLost)
                }
                Thread.sleep(forTimeInterval: connectedOnce ? 0.1 : 1)
                continue
            }
            connectedOnce = true
            if wasLost {
                wasLost = false
                handler(.serverBack)
            }
            final class Box { var events: [Event] = [] }
            let box = Box()
            pa_context_set_subscribe_callback(connection.context, { _, type, _, userdata in
                guard let userdata else { return }
                let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
                let kind = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
                guard facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue else { return }
                let box = Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue()
                if kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue { box.events.append(.sourceAdded) }
                if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { box.events.append(.sourceRemoved) }
            }, Unmanaged.passUnretained(box).toOpaque())
            if let operation = pa_context_subscribe(connection.context, PA_SUBSCRIPTION_MASK_SOURCE, nil, nil) {
                pa_operation_unref(operation)
            }
            while !isStopRequested, connection.isGood {
                guard connection.iterate(timeout: 50_000_000) else { break }
                let events = box.events
                box.events.removeAll()
                events.forEach(handler)
            }
            pa_context_set_subscribe_callback(connection.context, nil, nil)
            withExtendedLifetime(box) {}
            if !isStopRequested, !connection.isGood {
                wasLost = true
                handler(.serverLost)
            }
        }
    }
}
