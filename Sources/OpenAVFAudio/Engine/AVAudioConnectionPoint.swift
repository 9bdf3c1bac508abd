import Foundation

/// One end of a connection in an engine's graph: a node and one of its buses.
open class AVAudioConnectionPoint: NSObject, @unchecked Sendable {
    /// The node; nil once it is gone.
    public private(set) weak var node: AVAudioNode?
    /// The bus of the node.
    public let bus: AVAudioNodeBus

    /// The point at `bus` of `node`.
    public init(node: AVAudioNode, bus: AVAudioNodeBus) {
        self.node = node
        self.bus = bus
        super.init()
    }
}
