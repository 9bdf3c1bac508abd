// OpenAVFoundation re-exports its base frameworks, as Apple's AVFoundation re-exports CoreMedia
// and CoreVideo: `import OpenAVFoundation` is all an app needs.
@_exported import OpenCoreMedia
@_exported import OpenCoreVideo
