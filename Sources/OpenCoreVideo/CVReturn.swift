// Core Video result codes, with the values of Apple's CVReturn.h.

/// A Core Video result code; `kCVReturnSuccess` (0) means success.
public typealias CVReturn = Int32

/// The operation completed successfully.
public let kCVReturnSuccess: CVReturn = 0
/// Placeholder marking the beginning of the Core Video result codes (not returned by any function).
public let kCVReturnFirst: CVReturn = -6660
/// An otherwise undefined error occurred.
public let kCVReturnError: CVReturn = kCVReturnFirst
/// An argument is invalid: out of range or of the wrong type.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// Memory allocation for a buffer or buffer pool failed.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The operation is not supported for this type.
public let kCVReturnUnsupported: CVReturn = -6663
/// A display link cannot be created for the given display.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it (no display links on Linux).
public let kCVReturnInvalidDisplay: CVReturn = -6670
/// The display link is already running.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnDisplayLinkAlreadyRunning: CVReturn = -6671
/// The display link is not running.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnDisplayLinkNotRunning: CVReturn = -6672
/// The display link's output callback is not set.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnDisplayLinkCallbacksNotSet: CVReturn = -6673
/// The requested pixel format is not supported.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The requested size is not supported.
public let kCVReturnInvalidSize: CVReturn = -6681
/// A buffer cannot be created with the given attributes.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682
/// The buffer cannot be used with OpenGL.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnPixelBufferNotOpenGLCompatible: CVReturn = -6683
/// The buffer cannot be used with Metal.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnPixelBufferNotMetalCompatible: CVReturn = -6684
/// Allocation failed because it would exceed the pool's `kCVPixelBufferPoolAllocationThresholdKey`.
public let kCVReturnWouldExceedAllocationThreshold: CVReturn = -6689
/// Allocation for a buffer pool failed.
public let kCVReturnPoolAllocationFailed: CVReturn = -6690
/// A buffer pool cannot be created with the given attributes.
public let kCVReturnInvalidPoolAttributes: CVReturn = -6691
/// A scan of a buffer pool did not complete because of a concurrent operation; the caller may retry.
///
/// Declared for source compatibility; nothing in OpenCoreVideo returns it.
public let kCVReturnRetry: CVReturn = -6692
/// Placeholder marking the end of the Core Video result codes (not returned by any function).
public let kCVReturnLast: CVReturn = -6699
