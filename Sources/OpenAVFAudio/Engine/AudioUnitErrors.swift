import OpenCoreMedia

// Audio Unit result codes (AudioToolbox's AUComponent.h) that AVAudioEngine throws, with Apple's
// values.

/// A unit or an engine could not be initialized (the sound server could not play, say).
public let kAudioUnitErr_FailedInitialization: OSStatus = -10875
/// Nothing is connected where something must be (an engine started with no path to its output).
public let kAudioUnitErr_NoConnection: OSStatus = -10876
/// A format a unit cannot take.
public let kAudioUnitErr_FormatNotSupported: OSStatus = -10868
