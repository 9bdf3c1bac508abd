import OpenCoreVideo

/// A four-character code naming how a timed metadata track's samples are laid out: the media
/// subtype of a `kCMMediaType_Metadata` format description.
public typealias CMMetadataFormatType = FourCharCode

/// SHOUTcast (ICY) metadata (`'icy '`).
public let kCMMetadataFormatType_ICY: CMMetadataFormatType = 0x6963_7920 // 'icy '
/// ID3 tags, one whole ID3v2 tag per sample, as HTTP Live Streaming carries timed metadata (`'id3 '`).
public let kCMMetadataFormatType_ID3: CMMetadataFormatType = 0x6964_3320 // 'id3 '
/// QuickTime boxed metadata (`'mebx'`).
public let kCMMetadataFormatType_Boxed: CMMetadataFormatType = 0x6D65_6278 // 'mebx'
/// MPEG-DASH event messages (`'emsg'`).
public let kCMMetadataFormatType_EMSG: CMMetadataFormatType = 0x656D_7367 // 'emsg'
