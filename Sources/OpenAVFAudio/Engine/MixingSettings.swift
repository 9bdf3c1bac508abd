import Synchronization

/// A volume and a pan that user threads set and the render thread reads without a lock (each
/// value is one atomic word).
final class MixingSettings: Sendable {
    private let volumeBits: Atomic<UInt32>
    private let panBits: Atomic<UInt32>

    /// Settings of `volume` and `pan`.
    init(volume: Float = 1, pan: Float = 0) {
        volumeBits = Atomic(volume.bitPattern)
        panBits = Atomic(pan.bitPattern)
    }

    /// The level, clamped to 0...1 when read.
    var volume: Float {
        get { min(1, max(0, Float(bitPattern: volumeBits.load(ordering: .relaxed)))) }
        set { volumeBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// The pan, clamped to -1...1 when read.
    var pan: Float {
        get { min(1, max(-1, Float(bitPattern: panBits.load(ordering: .relaxed)))) }
        set { panBits.store(newValue.bitPattern, ordering: .relaxed) }
    }
}
