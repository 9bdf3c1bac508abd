import Foundation

/// An engine's graph: which output bus feeds which input bus, in which format, with which
/// mixing settings, behind the one lock that the render thread holds for a cycle and that every
/// change of the graph takes (connections, attachments, taps, formats). Changes made while the
/// engine runs land between two cycles.
final class EngineGraph: @unchecked Sendable {
    /// One connection: `source`'s output bus into `destination`'s input bus.
    struct Connection {
        let source: AVAudioNode
        let sourceBus: AVAudioNodeBus
        unowned let destination: AVAudioNode
        let destinationBus: AVAudioNodeBus
        let format: AVAudioFormat
        /// The volume and pan a mixer applies to this input.
        let mixing: AVAudioMixingDestination
    }

    /// A node's input bus.
    struct InputKey: Hashable {
        let node: ObjectIdentifier
        let bus: AVAudioNodeBus
    }

    private let lock = NSRecursiveLock()
    /// The connections, by the input bus they feed.
    private(set) var connections: [InputKey: Connection] = [:] {
        didSet {
            inputs = Dictionary(grouping: connections.values) { ObjectIdentifier($0.destination) }
                .mapValues { $0.sorted { $0.destinationBus < $1.destinationBus } }
        }
    }
    /// The connections into each node, by input bus: kept with every change so that the render
    /// thread reads them without making an array.
    private var inputs: [ObjectIdentifier: [Connection]] = [:]

    /// Runs `body` with the graph locked.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The connection into `bus` of `node` (lock held).
    func connection(into node: AVAudioNode, bus: AVAudioNodeBus) -> Connection? {
        connections[InputKey(node: ObjectIdentifier(node), bus: bus)]
    }

    /// The connections out of `node`'s output bus `bus`, or out of any of its buses (lock held).
    func connections(from node: AVAudioNode, bus: AVAudioNodeBus? = nil) -> [Connection] {
        connections.values.filter { $0.source === node && (bus == nil || $0.sourceBus == bus) }.sorted { $0.destinationBus < $1.destinationBus }
    }

    /// The connections into any input bus of `node`, by bus (lock held).
    func connections(into node: AVAudioNode) -> [Connection] {
        inputs[ObjectIdentifier(node)] ?? []
    }

    /// Adds `connection`, replacing what fed its input bus (lock held).
    func add(_ connection: Connection) {
        connections[InputKey(node: ObjectIdentifier(connection.destination), bus: connection.destinationBus)] = connection
    }

    /// Removes the connections `shouldRemove` picks (lock held).
    func removeConnections(where shouldRemove: (Connection) -> Bool) {
        connections = connections.filter { !shouldRemove($0.value) }
    }

    /// The samples feeding `bus` of `node` for `cycle`: `frames` frames of the connected output
    /// bus, rendered if it was not yet this cycle; nil when nothing is connected (lock held, on
    /// the render thread).
    func pull(into node: AVAudioNode, bus: AVAudioNodeBus, frames: Int, cycle: RenderCycle) -> RenderBus? {
        guard let connection = connection(into: node, bus: bus) else { return nil }
        return connection.source.pullOutput(bus: connection.sourceBus, frames: frames, cycle: cycle, graph: self)
    }
}
