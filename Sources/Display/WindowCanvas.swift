/// How a window's pictures reach its pixels: through SDL's renderer (the GPU where there is one)
/// or straight into the window's surface (no GPU). Used on the display thread only.
protocol WindowCanvas: AnyObject {
    /// The size of the window's drawable area in pixels.
    var pixelSize: (width: Int, height: Int) { get }
    /// Draws `pictures` over black, in order, and shows the result.
    func draw(_ pictures: [VideoWindow.Picture])
    /// Frees what the canvas made (not the window).
    func destroy()
}
