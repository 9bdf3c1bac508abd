// Pixel buffer attribute keys, with Apple's string values. OpenCoreVideo reads the pixel format,
// width, height, bytes-per-row alignment, plane alignment and the attachment keys; the others are
// accepted and ignored, as noted on each.

/// Attribute key for the pixel format (a number, or an array of numbers whose first is used).
public let kCVPixelBufferPixelFormatTypeKey: CFString = "PixelFormatType"
/// Attribute key for the memory allocator. Accepted and ignored: allocation uses the system allocator.
public let kCVPixelBufferMemoryAllocatorKey: CFString = "MemoryAllocator"
/// Attribute key for the width in pixels (a number).
public let kCVPixelBufferWidthKey: CFString = "Width"
/// Attribute key for the height in pixels (a number).
public let kCVPixelBufferHeightKey: CFString = "Height"
/// Attribute key for extra columns on the left. Accepted and ignored: buffers have no extended pixels.
public let kCVPixelBufferExtendedPixelsLeftKey: CFString = "ExtendedPixelsLeft"
/// Attribute key for extra rows on top. Accepted and ignored: buffers have no extended pixels.
public let kCVPixelBufferExtendedPixelsTopKey: CFString = "ExtendedPixelsTop"
/// Attribute key for extra columns on the right. Accepted and ignored: buffers have no extended pixels.
public let kCVPixelBufferExtendedPixelsRightKey: CFString = "ExtendedPixelsRight"
/// Attribute key for extra rows at the bottom. Accepted and ignored: buffers have no extended pixels.
public let kCVPixelBufferExtendedPixelsBottomKey: CFString = "ExtendedPixelsBottom"
/// Attribute key for the row alignment in bytes (a number).
///
/// Differs from Apple: rows are always aligned to at least 64 bytes; a requested alignment is
/// combined with 64 (least common multiple).
public let kCVPixelBufferBytesPerRowAlignmentKey: CFString = "BytesPerRowAlignment"
/// Attribute key asking for buffers usable by a CGBitmapContext. Accepted and ignored: every
/// packed RGB buffer qualifies.
public let kCVPixelBufferCGBitmapContextCompatibilityKey: CFString = "CGBitmapContextCompatibility"
/// Attribute key asking for buffers usable as a `CGImage`. Accepted and ignored: every packed RGB
/// buffer converts with `CGImage(pixelBuffer:)`.
public let kCVPixelBufferCGImageCompatibilityKey: CFString = "CGImageCompatibility"
/// Attribute key asking for OpenGL compatibility. Accepted and ignored: no OpenGL on Linux.
public let kCVPixelBufferOpenGLCompatibilityKey: CFString = "OpenGLCompatibility"
/// Attribute key for the alignment of each plane's start, in bytes (a number).
///
/// Differs from Apple: planes always start on at least 64 bytes; a request is combined with 64.
public let kCVPixelBufferPlaneAlignmentKey: CFString = "PlaneAlignment"
/// Attribute key asking for IOSurface-backed buffers. Accepted and ignored: no IOSurface on Linux;
/// buffers are in ordinary memory.
public let kCVPixelBufferIOSurfacePropertiesKey: CFString = "IOSurfaceProperties"
/// Attribute key asking for OpenGL ES compatibility. Accepted and ignored.
public let kCVPixelBufferOpenGLESCompatibilityKey: CFString = "OpenGLESCompatibility"
/// Attribute key asking for Metal compatibility. Accepted and ignored: no Metal on Linux.
public let kCVPixelBufferMetalCompatibilityKey: CFString = "MetalCompatibility"
/// Attribute key asking for buffers usable by an OpenGL texture cache (macOS). Accepted and
/// ignored: no OpenGL on Linux.
///
/// Apple does not publish the string value: compare with the constant, not with a literal.
public let kCVPixelBufferOpenGLTextureCacheCompatibilityKey: CFString = "OpenGLTextureCacheCompatibility"
/// Attribute key asking for buffers usable by an OpenGL ES texture cache (iOS). Accepted and
/// ignored: no OpenGL ES texture caches on Linux.
///
/// Apple does not publish the string value: compare with the constant, not with a literal.
public let kCVPixelBufferOpenGLESTextureCacheCompatibilityKey: CFString = "OpenGLESTextureCacheCompatibility"
/// Attribute key asking for IOSurface buffers usable as OpenGL textures (macOS). Accepted and
/// ignored: no IOSurface or OpenGL on Linux.
public let kCVPixelBufferIOSurfaceOpenGLTextureCompatibilityKey: CFString = "IOSurfaceOpenGLTextureCompatibility"
/// Attribute key asking for IOSurface buffers usable as OpenGL framebuffers (macOS). Accepted and
/// ignored.
public let kCVPixelBufferIOSurfaceOpenGLFBOCompatibilityKey: CFString = "IOSurfaceOpenGLFBOCompatibility"
/// Attribute key asking for IOSurface buffers Core Animation can show. Accepted and ignored.
public let kCVPixelBufferIOSurfaceCoreAnimationCompatibilityKey: CFString = "IOSurfaceCoreAnimationCompatibility"
/// Attribute key asking for IOSurface buffers usable as OpenGL ES textures (iOS). Accepted and
/// ignored.
public let kCVPixelBufferIOSurfaceOpenGLESTextureCompatibilityKey: CFString = "IOSurfaceOpenGLESTextureCompatibility"
/// Attribute key asking for IOSurface buffers usable as OpenGL ES framebuffers (iOS). Accepted
/// and ignored.
public let kCVPixelBufferIOSurfaceOpenGLESFBOCompatibilityKey: CFString = "IOSurfaceOpenGLESFBOCompatibility"
