import Foundation
import HostSystem
import OpenCoreVideo

/// A rectangle of a window's picture, in a tree of layers: the part of Core Animation's
/// `CALayer` that showing video needs.
///
/// Linux has no Core Animation. `AVPlayerLayer` and `AVCaptureVideoPreviewLayer` are layers as
/// on Apple platforms, and an `AVDisplayWindow` shows a layer tree in a native window. A layer
/// here has a frame (in its superlayer's coordinates, origin at the top left), bounds of the
/// same size, `isHidden`, a background colour and a border, and sublayers drawn in order above
/// it; there are no animations, transforms or contents of its own yet.
open class CALayer: NSObject, @unchecked Sendable {
    /// The layer's place in its tree: the sublayers, and the superlayer, held weakly (a layer
    /// owns its sublayers).
    private struct Tree {
        var sublayers: [CALayer] = []
        weak var superlayer: CALayer?
    }

    private let tree = Locked(Tree())

    /// Creates a layer with a zero frame.
    public override init() {
        super.init()
    }

    /// The layer's rectangle in its superlayer's coordinates.
    @Locked open var frame = CGRect.zero

    /// The layer's own coordinates: origin zero, the frame's size. Setting it sets the frame's
    /// size.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { $frame.withLock { $0.size = newValue.size } }
    }

    /// The layer's centre in its superlayer's coordinates (its anchor point is always the
    /// centre here); setting it moves the frame.
    open var position: CGPoint {
        get {
            let frame = frame
            return CGPoint(x: frame.midX, y: frame.midY)
        }
        set {
            $frame.withLock { frame in
                frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2)
            }
        }
    }

    /// A name for the layer, for the app's own use; nil by default.
    @Locked open var name = String?.none

    /// Whether the layer and its sublayers are left out of the picture.
    @Locked open var isHidden = false

    /// The colours the layer draws, with their pictures.
    private struct Appearance {
        var background: SolidColor?
        var border: SolidColor? = SolidColor(.black)
        var borderWidth: CGFloat = 0
    }

    private let appearance = Locked(Appearance())

    /// The colour filling the layer's bounds below its content and sublayers; nil (the default)
    /// for none. Colours are drawn as their components state them (no colour matching); a
    /// translucent one blends over what is below where the window draws with SDL's renderer.
    open var backgroundColor: CGColor? {
        get { appearance.withLock { $0.background?.color } }
        set { appearance.withLock { $0.background = newValue.map(SolidColor.init) } }
    }

    /// The width of the border drawn inside the layer's bounds, above its content and
    /// sublayers; 0 (the default) for none.
    open var borderWidth: CGFloat {
        get { appearance.withLock { $0.borderWidth } }
        set { appearance.withLock { $0.borderWidth = max(0, newValue) } }
    }

    /// The border's colour; opaque black by default.
    open var borderColor: CGColor? {
        get { appearance.withLock { $0.border?.color } }
        set { appearance.withLock { $0.border = newValue.map(SolidColor.init) } }
    }

    /// The layers drawn above this one, in order (the last on top); nil when there are none.
    /// Setting it takes the former sublayers out and each new one from its former superlayer.
    open var sublayers: [CALayer]? {
        get {
            let sublayers = tree.sublayers
            return sublayers.isEmpty ? nil : sublayers
        }
        set {
            for child in tree.sublayers { child.removeFromSuperlayer() }
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }

    /// The layer this one is a sublayer of.
    open var superlayer: CALayer? { tree.superlayer }

    /// Adds `layer` on top of the sublayers, taking it from its former superlayer.
    open func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(tree.sublayers.count))
    }

    /// Inserts `layer` among the sublayers at `idx` (0 is the bottom), taking it from its
    /// former superlayer.
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        layer.removeFromSuperlayer()
        tree.withLock { tree in tree.sublayers.insert(layer, at: min(Int(idx), tree.sublayers.count)) }
        layer.tree.superlayer = self
    }

    /// Inserts `layer` among the sublayers just below `sibling` (at the bottom when `sibling`
    /// is nil). A `sibling` that is not a sublayer is a programmer error.
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard layer !== sibling else { return }
        layer.removeFromSuperlayer()
        insertSublayer(layer, at: UInt32(index(ofSibling: sibling, method: "insertSublayer(_:below:)") ?? 0))
    }

    /// Inserts `layer` among the sublayers just above `sibling` (on top when `sibling` is nil). A
    /// `sibling` that is not a sublayer is a programmer error.
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard layer !== sibling else { return }
        layer.removeFromSuperlayer()
        let index = index(ofSibling: sibling, method: "insertSublayer(_:above:)").map { $0 + 1 }
        insertSublayer(layer, at: UInt32(index ?? tree.sublayers.count))
    }

    /// Puts `newLayer` where the sublayer `oldLayer` is, taking `oldLayer` out. An `oldLayer` that
    /// is not a sublayer is a programmer error.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer else { return }
        newLayer.removeFromSuperlayer()
        guard let index = index(ofSibling: oldLayer, method: "replaceSublayer(_:with:)") else { return }
        oldLayer.removeFromSuperlayer()
        insertSublayer(newLayer, at: UInt32(index))
    }

    /// The index of the sublayer `sibling` (nil for nil); a layer that is not a sublayer is a
    /// programmer error of `method`.
    private func index(ofSibling sibling: CALayer?, method: String) -> Int? {
        guard let sibling else { return nil }
        guard let index = tree.sublayers.firstIndex(where: { $0 === sibling }) else {
            Misuse.fail(.siblingNotSublayer(method: method))
        }
        return index
    }

    /// Takes the layer out of its superlayer; a video layer no longer in a window stops taking
    /// pictures.
    open func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.tree.withLock { tree in tree.sublayers.removeAll { $0 === self } }
        tree.superlayer = nil
        leftWindow()
    }

    /// The pictures of this layer and its sublayers, at `origin` (the layer's frame origin in the
    /// window's coordinates), bottom first. Called on the display thread by the window showing
    /// the tree.
    func pictures(at origin: CGPoint) -> [LayerPicture] {
        guard !isHidden else { return [] }
        let area = CGRect(origin: origin, size: frame.size)
        let (background, border, width) = appearance.withLock { ($0.background, $0.border, min($0.borderWidth, area.width / 2, area.height / 2)) }
        var pictures: [LayerPicture] = []
        if let background { pictures.append(background.picture(filling: area)) }
        if var picture = currentPicture() {
            picture.rect = picture.rect.offsetBy(dx: origin.x, dy: origin.y)
            picture.clip = area
            pictures.append(picture)
        }
        for child in tree.sublayers {
            let childOrigin = CGPoint(x: origin.x + child.frame.origin.x, y: origin.y + child.frame.origin.y)
            pictures += child.pictures(at: childOrigin)
        }
        if let border, width > 0 {
            // Top and bottom across the whole width, the sides between them.
            let sides = [CGRect(x: area.minX, y: area.minY, width: area.width, height: width),
                         CGRect(x: area.minX, y: area.maxY - width, width: area.width, height: width),
                         CGRect(x: area.minX, y: area.minY + width, width: width, height: area.height - 2 * width),
                         CGRect(x: area.maxX - width, y: area.minY + width, width: width, height: area.height - 2 * width)]
            pictures += sides.filter { !$0.isEmpty }.map(border.picture(filling:))
        }
        return pictures
    }

    /// The picture this layer shows and where, in its own coordinates; none for a plain layer.
    func currentPicture() -> LayerPicture? { nil }

    /// The layer and its sublayers are now shown in a window: video layers ask their sources for
    /// pictures at once (a player's item reads its video from the start, not from the first redraw).
    func enteredWindow() {
        for child in tree.sublayers { child.enteredWindow() }
    }

    /// The layer and its sublayers are no longer in a window: video layers let their sources go.
    func leftWindow() {
        for child in tree.sublayers { child.leftWindow() }
    }
}
