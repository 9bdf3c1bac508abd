/// UTF-8 text, the base data type of string metadata values.
public let kCMMetadataBaseDataType_UTF8: CFString = "com.apple.metadata.datatype.UTF-8"
/// UTF-16 text.
public let kCMMetadataBaseDataType_UTF16: CFString = "com.apple.metadata.datatype.UTF-16"
/// Bytes with no further type, the base data type of data metadata values.
public let kCMMetadataBaseDataType_RawData: CFString = "com.apple.metadata.datatype.raw-data"

/// The data type of an ISO 6709 location string, such as `+48.8577+002.295/`, in QuickTime
/// metadata (`com.apple.quicktime.location.ISO6709`). Conforms to `kCMMetadataBaseDataType_UTF8`.
///
/// Apple does not publish this constant's string value; the value here is this library's own.
/// Compare a data type with the constant, never with a string literal.
public let kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709: CFString =
    "com.apple.metadata.datatype.QuickTimeMetadataLocation_ISO6709"
/// The data type of a direction string in QuickTime metadata
/// (`com.apple.quicktime.direction.facing`, `com.apple.quicktime.direction.motion`). Conforms
/// to `kCMMetadataBaseDataType_UTF8`.
///
/// Apple does not publish this constant's string value; the value here is this library's own.
/// Compare a data type with the constant, never with a string literal.
public let kCMMetadataDataType_QuickTimeMetadataDirection: CFString =
    "com.apple.metadata.datatype.QuickTimeMetadataDirection"

/// A JPEG image, the data type of JPEG cover art.
public let kCMMetadataBaseDataType_JPEG: CFString = "public.jpeg"
/// A PNG image, the data type of PNG cover art.
public let kCMMetadataBaseDataType_PNG: CFString = "public.png"
