/// A track's identifier within its file, stable across openings (the MP4/MOV track ID).
public typealias CMPersistentTrackID = Int32

/// The identifier no track has.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0
