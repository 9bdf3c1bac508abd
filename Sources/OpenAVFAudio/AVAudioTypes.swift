// AVFAudio's counting types (AVAudioTypes.h).

/// A number of audio sample frames.
public typealias AVAudioFrameCount = UInt32

/// A position in an audio file or stream, in sample frames.
public typealias AVAudioFramePosition = Int64

/// A number of packets of compressed audio.
public typealias AVAudioPacketCount = UInt32

/// A number of audio channels.
public typealias AVAudioChannelCount = UInt32

/// The index of one of an audio node's input or output buses.
public typealias AVAudioNodeBus = Int

/// The block a tap on a node's output bus is called with: a buffer of what the bus rendered, and
/// the time of its first frame.
public typealias AVAudioNodeTapBlock = @Sendable (AVAudioPCMBuffer, AVAudioTime) -> Void

/// The handler called when a node has done what was scheduled (a buffer or a file played).
public typealias AVAudioNodeCompletionHandler = @Sendable () -> Void

/// The handler a player calls when a scheduled buffer or file is done, with how it was done.
public typealias AVAudioPlayerNodeCompletionHandler = @Sendable (AVAudioPlayerNodeCompletionCallbackType) -> Void
