import Foundation

/// The stereo setting of a mixer's input: where between the left and right it is placed.
public protocol AVAudioStereoMixing: NSObjectProtocol {
    /// The position from -1 (left) through 0 (centre) to 1 (right). A mixer with a stereo
    /// output keeps the near side at full level and lowers the far side in proportion (a
    /// balance: at 0.5 the left is at half level); a mono input is heard on both sides.
    var pan: Float { get set }
}
