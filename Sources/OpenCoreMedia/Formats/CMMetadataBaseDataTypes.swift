/// UTF-8 text, the base data type of string metadata values.
public let kCMMetadataBaseDataType_UTF8: CFString = "com.apple.metadata.datatype.UTF-8"
/// UTF-16 text.
public let kCMMetadataBaseDataType_UTF16: CFString = "com.apple.metadata.datatype.UTF-16"
/// Bytes with no further type, the base data type of data metadata values.
public let kCMMetadataBaseDataType_RawData: CFString = "com.apple.metadata.datatype.raw-data"
