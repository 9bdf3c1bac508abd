/// The orientation of captured video.
public enum AVCaptureVideoOrientation: Int, Sendable {
    /// Upright, home button at the bottom.
    case portrait = 1
    /// Upside down, home button at the top.
    case portraitUpsideDown = 2
    /// Landscape, home button on the right: the buffers as cameras deliver them.
    case landscapeRight = 3
    /// Landscape, home button on the left.
    case landscapeLeft = 4
}
