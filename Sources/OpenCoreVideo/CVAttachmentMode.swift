/// Whether a buffer attachment is copied to derived buffers by `CVBufferPropagateAttachments(_:_:)`.
public enum CVAttachmentMode: UInt32, Sendable {
    /// The attachment stays on this buffer only.
    case shouldNotPropagate = 0
    /// The attachment is copied to buffers derived from this one.
    case shouldPropagate = 1
}
