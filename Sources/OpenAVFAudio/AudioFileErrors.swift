import OpenCoreMedia

// Core Audio's result codes that AVAudioFile throws (AudioToolbox's AudioFile.h and
// CoreAudioTypes), with Apple's values, and AVFAudio's error domain.

/// An unspecified failure to open or use a file, such as a missing file (`'wht?'`).
public let kAudioFileUnspecifiedError: OSStatus = 0x7768_743F
/// The file's type is not one that can be read or written (`'typ?'`).
public let kAudioFileUnsupportedFileTypeError: OSStatus = 0x7479_703F
/// The data format is not supported by the file type or the codecs (`'fmt?'`).
public let kAudioFileUnsupportedDataFormatError: OSStatus = 0x666D_743F
/// The file is malformed or its data cannot be decoded (`'dta?'`).
public let kAudioFileInvalidFileError: OSStatus = 0x6474_613F
/// The file was closed (-38).
public let kAudioFileNotOpenError: OSStatus = -38
/// A parameter is not valid, such as a buffer in another format than the file's (-50).
public let kAudio_ParamError: OSStatus = -50

/// The domain of the errors AVFAudio's classes throw, as Apple's `NSError`s report it.
let avfAudioErrorDomain = "com.apple.coreaudio.avfaudio"
