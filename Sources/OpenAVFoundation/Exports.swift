// OpenAVFoundation re-exports its base frameworks, as Apple's AVFoundation re-exports AVFAudio,
// CoreMedia and CoreVideo, and Foundation with them (`URL`, `FileManager`, `Date` after importing only
// AVFoundation): `import OpenAVFoundation` is all an app needs. On Linux Foundation's URL loading
// types (`URLRequest`, `URLResponse`, which the resource loader's requests carry) are a module of
// their own, re-exported too.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import OpenCoreMedia
@_exported import OpenCoreVideo
@_exported import OpenAVFAudio
