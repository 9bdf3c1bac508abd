/// The video stabilization modes of capture devices and connections.
///
/// The cameras here (the virtual camera, V4L2 cameras) do not stabilize: only `.off` is
/// supported, and every connection's `activeVideoStabilizationMode` is `.off`.
public enum AVCaptureVideoStabilizationMode: Int, Sendable {
    /// The device chooses the mode.
    case auto = -1
    /// No stabilization.
    case off = 0
    /// The standard algorithm.
    case standard = 1
    /// The cinematic algorithm.
    case cinematic = 2
    /// The extended cinematic algorithm.
    case cinematicExtended = 3
    /// A mode that keeps preview latency low.
    case previewOptimized = 4
    /// The enhanced extended cinematic algorithm.
    case cinematicExtendedEnhanced = 5
    /// A mode with little latency.
    case lowLatency = 6
}
