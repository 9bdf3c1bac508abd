import Foundation
import OpenCoreVideo

/// A parameter passed to a format description function was not valid.
public let kCMFormatDescriptionError_InvalidParameter: OSStatus = -12710
/// Memory could not be allocated for a format description.
public let kCMFormatDescriptionError_AllocationFailed: OSStatus = -12711
/// The requested value is not available.
public let kCMFormatDescriptionError_ValueNotAvailable: OSStatus = -12718
