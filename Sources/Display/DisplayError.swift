/// Why a window could not be opened or drawn: no display (no X server, no Wayland compositor,
/// no usable DRM device), or SDL's own failure, in one line.
package struct DisplayError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
