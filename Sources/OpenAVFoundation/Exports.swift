// OpenAVFoundation re-exports its base frameworks, as Apple's AVFoundation re-exports AVFAudio,
// CoreMedia and CoreVideo, and Foundation with them (`URL`, `FileManager`, `Date` after importing only
// AVFoundation): `import OpenAVFoundation` is all an app needs.
@_exported import Foundation
@_exported import OpenCoreMedia
@_exported import OpenCoreVideo
@_exported import OpenAVFAudio
