import Display
import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// A layer that shows a player's video: put it in an `AVDisplayWindow` (the Linux addition that
/// stands where a view stands on Apple platforms).
///
/// While the layer is in a window it takes the current item's pictures through a video output of
/// its own, the picture due at each moment of the player's clock, so that it drops pictures
/// rather than slowing the player; out of a window it costs nothing. Several layers may show one
/// player. Pictures are shown turned by the video track's preferred transform (a phone's
/// portrait movie stands upright).
open class AVPlayerLayer: CALayer, @unchecked Sendable {
    @Locked private var playerValue: AVPlayer? = nil

    /// The output and what it shows, behind one lock.
    private struct State {
        var attributes: [String: Any]?
        /// The output taking pictures, the item it was added to, and that item's video
        /// transform (known once the item is ready).
        var output: AVPlayerItemVideoOutput?
        weak var outputItem: AVPlayerItem?
        var transform: CGAffineTransform?
        /// The picture shown, and the item it is of.
        var shown: CVPixelBuffer?
        /// How late new pictures were taken for the window, against the player's clock: a
        /// running average, in seconds.
        var lateness: Double?
    }

    private let state = Locked(State())

    /// Creates a layer showing `player`'s video.
    public convenience init(player: AVPlayer?) {
        self.init()
        self.player = player
    }

    /// Creates a layer showing no player.
    public override init() {
        super.init()
    }

    /// The player whose video the layer shows.
    open var player: AVPlayer? {
        get { playerValue }
        set {
            playerValue = newValue
            leftWindow()
        }
    }

    /// How the video fits the layer's bounds; `.resizeAspect` by default.
    @Locked open var videoGravity = AVLayerVideoGravity.resizeAspect

    /// The attributes of the pixel buffers the layer takes (`kCVPixelBufferPixelFormatTypeKey`);
    /// nil, the default, takes the decoder's own pictures when a window shows them as they are
    /// (NV12, I420 or BGRA), else NV12. A window shows only those formats.
    open var pixelBufferAttributes: [String: Any]? {
        get { state.attributes }
        set {
            state.attributes = newValue
            leftWindow()
        }
    }

    /// Whether the layer has a picture of the current item to show (once it is in a window).
    open var isReadyForDisplay: Bool { state.shown != nil }

    /// Where the video is shown in the layer's bounds, by the current item's presentation size and
    /// the video gravity; zero when there is no video.
    open var videoRect: CGRect {
        guard let item = player?.currentItem else { return .zero }
        return videoGravity.videoRect(for: item.presentationSize, in: bounds)
    }

    /// The picture the layer shows while the player is paused; nil while it plays or before a
    /// picture is shown.
    open func displayedPixelBuffer() -> CVPixelBuffer? {
        guard let player, player.rate == 0 else { return nil }
        return state.shown
    }

    /// The picture due now of the player's current item, moving the layer's output to a new
    /// current item first.
    override func currentPicture() -> LayerPicture? {
        guard let item = player?.currentItem else {
            leftWindow()
            return nil
        }
        let output = outputAttached(to: item)
        let time = output.itemTime(forHostTime: CACurrentMediaTime())
        var pictureTime = CMTime.invalid
        if time.isValid, output.hasNewPixelBuffer(forItemTime: time),
           let buffer = output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: &pictureTime) {
            let late = pictureTime.isNumeric && player?.rate != 0 ? (time - pictureTime).seconds : nil
            state.withLock { s in
                s.shown = buffer
                if let late { s.lateness = s.lateness.map { $0 * 0.9 + late * 0.1 } ?? late }
            }
        }
        guard let buffer = state.shown else { return nil }
        return LayerPicture(buffer: buffer, rect: videoRect, clip: bounds, transform: videoTransform(of: item))
    }

    /// How late the layer's pictures come against the player's clock (the sound when there is
    /// sound) while playing: the item time when a new picture is taken for the window, less the
    /// picture's own time, as a running average in seconds; nil before the first. A picture is
    /// taken at the window's first redraw after its time, so up to one redraw interval is on time.
    /// Package access, for `openav play`'s status line.
    package var pictureLateness: Double? { state.lateness }

    /// The transform of `item`'s video track (none for a video composition's frames, which are
    /// upright), looked up once the item is ready (its tracks are known then), not at each
    /// redraw.
    private func videoTransform(of item: AVPlayerItem) -> CGAffineTransform {
        if let known = state.transform { return known }
        guard item.status == .readyToPlay else { return .identity }
        let found = item.videoComposition != nil ? .identity
            : item.tracks.lazy.compactMap(\.assetTrack).first { $0.mediaType == .video }?.preferredTransform ?? .identity
        state.withLock { s in if s.outputItem === item { s.transform = found } }
        return found
    }

    /// The layer's output, added to `item` (and taken from the item before) when it is not yet.
    private func outputAttached(to item: AVPlayerItem) -> AVPlayerItemVideoOutput {
        let (current, old, settings) = state.withLock { ($0.output, $0.outputItem, $0.attributes) }
        if let current, old === item { return current }
        if let current { old?.remove(current) }
        let made = AVPlayerItemVideoOutput(pixelBufferAttributes: settings ?? [kCVPixelBufferPixelFormatTypeKey as String: VideoWindow.pixelFormats])
        state.withLock { s in
            s.output = made
            s.outputItem = item
            s.transform = nil
            s.shown = nil
        }
        item.add(made)
        // Taken out of its window meanwhile: the output is no longer the layer's.
        if state.output !== made { item.remove(made) }
        return made
    }

    /// In a window: the output joins the player's current item now.
    override func enteredWindow() {
        if let item = player?.currentItem { _ = outputAttached(to: item) }
        super.enteredWindow()
    }

    /// Out of a window: the output leaves its item, so the player decodes no pictures for it.
    override func leftWindow() {
        let (output, item) = state.withLock { s -> (AVPlayerItemVideoOutput?, AVPlayerItem?) in
            defer {
                s.output = nil
                s.outputItem = nil
                s.transform = nil
                s.shown = nil
                s.lateness = nil
            }
            return (s.output, s.outputItem)
        }
        if let output { item?.remove(output) }
        super.leftWindow()
    }
}
