import CBarcodes

/// Draws barcodes as modules, with zxing-cpp: the Test Pattern Camera's QR code.
package enum CodeWriter {
    /// Draws `text` as a code of `format` (one format) without a quiet zone into `modules`,
    /// one byte a module row after row (1 dark, 0 light), in at most `limit` modules a side.
    /// Returns the size drawn, or nil when the text cannot be written in that format or needs
    /// more modules.
    package static func draw(_ text: String, as format: CodeReader.Format, into modules: UnsafeMutableBufferPointer<UInt8>,
                             limit: Int) -> (width: Int, height: Int)? {
        precondition(modules.count >= limit * limit, "room for limit × limit modules")
        var width: Int32 = 0, height: Int32 = 0
        guard let base = modules.baseAddress,
              cbarcodes_write(text, format.rawValue, Int32(limit), Int32(limit), base, &width, &height) == 0 else { return nil }
        return (Int(width), Int(height))
    }
}
