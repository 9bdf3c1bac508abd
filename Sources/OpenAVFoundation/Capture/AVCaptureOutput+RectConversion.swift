import Foundation
import MediaEngine
import OpenCoreVideo

extension AVCaptureOutput {
    /// A rectangle of the output's pictures (in pixels, as the output delivers them: turned and
    /// mirrored as its video connection says) in the coordinates metadata outputs use: 0 to 1
    /// across and down the camera's unturned picture. Unchanged for an output without video.
    public func metadataOutputRectConverted(fromOutputRect rectInOutputCoordinates: CGRect) -> CGRect {
        guard let (turn, size) = deliveredVideo, size.width > 0, size.height > 0 else { return rectInOutputCoordinates }
        func convert(_ point: CGPoint) -> CGPoint { turn.unturned(CGPoint(x: point.x / size.width, y: point.y / size.height)) }
        return CGRect(corners: convert(rectInOutputCoordinates.origin),
                      convert(CGPoint(x: rectInOutputCoordinates.maxX, y: rectInOutputCoordinates.maxY)))
    }

    /// A rectangle in the coordinates metadata outputs use (0 to 1 across and down the camera's
    /// unturned picture) in the output's pictures, in pixels. Unchanged for an output without
    /// video.
    public func outputRectConverted(fromMetadataOutputRect rectInMetadataOutputCoordinates: CGRect) -> CGRect {
        guard let (turn, size) = deliveredVideo else { return rectInMetadataOutputCoordinates }
        func convert(_ point: CGPoint) -> CGPoint {
            let shown = turn.turned(point)
            return CGPoint(x: shown.x * size.width, y: shown.y * size.height)
        }
        return CGRect(corners: convert(rectInMetadataOutputCoordinates.origin),
                      convert(CGPoint(x: rectInMetadataOutputCoordinates.maxX, y: rectInMetadataOutputCoordinates.maxY)))
    }

    /// The turn of the output's video connection and the size of the pictures it delivers
    /// (the camera's active format, turned, as the output scales it); nil without a video
    /// connection from a camera.
    private var deliveredVideo: (turn: QuarterTurn, size: CGSize)? {
        guard let connection = connection(with: .video), let format = connection.activeVideoFormat else { return nil }
        let turn = connection.videoTurn
        let size = deliveredSize(turned: turn.size(width: format.width, height: format.height))
        return (turn, CGSize(width: size.width, height: size.height))
    }
}
