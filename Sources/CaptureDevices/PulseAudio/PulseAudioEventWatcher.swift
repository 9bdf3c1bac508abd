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
    private let subscribed = DispatchSemaphore(value: 0)

    /// A watcher of `server` that calls `handler` on its thread for every event.
    package init(server: String?, handler: @escaping @Sendable (Event) -> Void) {
        self.server = server
        self.handler = handler
    }

    /// Starts the thread (named `name`); it connects first, so the server answering at start
    /// (or not) is no event.
    package func start(name: String) {
        // The first connection is made here, so that a server lost right after `start` is
        // already one the watcher knew; the thread takes it over.
        let first = Connection(try? PulseAudioConnection(server: server, clientName: "OpenAVFoundation session", timeout: 500_000_000))
        let thread = Thread { [self] in run(first: first) }
        thread.name = name
        self.thread = thread
        thread.start()
        // Events from here on are seen: wait until the thread subscribed (or found no server).
        _ = subscribed.wait(timeout: .now() + 2)
    }

    /// Stops the thread and waits for it.
    package func stop() {
        guard thread != nil else { return }
        stopRequested.withLock { $0 = true }
        finished.wait()
        thread = nil
    }

    private var isStopRequested: Bool { stopRequested.withLock { $0 } }

    /// A connection handed to the watcher's thread.
    private final class Connection: @unchecked Sendable {
        var connection: PulseAudioConnection?
        init(_ connection: PulseAudioConnection?) { self.connection = connection }
    }

    private func run(first: Connection) {
        defer { finished.signal() }
        var wasLost = false
        var connectedOnce = first.connection != nil
        var handedOver = first.connection
        first.connection = nil
        var signalledSubscription = false
        if handedOver == nil {
            signalledSubscription = true
            subscribed.signal()
        }
        while !isStopRequested {
            let made = handedOver ?? (try? PulseAudioConnection(server: server, clientName: "OpenAVFoundation session", timeout: 500_000_000))
            handedOver = nil
            guard let connection = made else {
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
            _ = connection.wait(for: pa_context_subscribe(connection.context, PA_SUBSCRIPTION_MASK_SOURCE, nil, nil),
                                untilNanoseconds: HostClock.now + 500_000_000)
            if !signalledSubscription {
                signalledSubscription = true
                subscribed.signal()
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
